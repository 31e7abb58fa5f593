import torch
from accelerate import Accelerator

from model import build_model

accelerator = Accelerator(mixed_precision="fp16")
model = build_model()
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
model, optimizer, train_loader = accelerator.prepare(model, optimizer, train_loader)
model.to(accelerator.device)

for batch in train_loader:
    optimizer.zero_grad()
    loss = model(**batch).loss
    accelerator.backward(loss)
    optimizer.step()
