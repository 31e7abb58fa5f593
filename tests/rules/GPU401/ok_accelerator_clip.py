import torch
from accelerate import Accelerator

from data import loader
from model import Model

accelerator = Accelerator(mixed_precision="fp16")
model = Model()
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
model, optimizer, loader = accelerator.prepare(model, optimizer, loader)

for batch in loader:
    loss = model(**batch).loss
    accelerator.backward(loss)
    if accelerator.sync_gradients:
        accelerator.clip_grad_norm_(model.parameters(), 1.0)
    optimizer.step()
    optimizer.zero_grad()
