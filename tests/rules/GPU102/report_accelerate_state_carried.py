import torch
import torch.nn.functional as F
from accelerate import Accelerator

from data import stream_dataloader
from model import RWKVLike

accelerator = Accelerator()
model = RWKVLike(vocab=50277, d_model=768, n_layer=12)
optimizer = torch.optim.AdamW(model.parameters(), lr=6e-4)
model, optimizer, stream_dataloader = accelerator.prepare(model, optimizer, stream_dataloader)

state = None
for tokens, targets in stream_dataloader:
    logits, state = model(tokens, state)  # expect: GPU102
    loss = F.cross_entropy(logits.view(-1, logits.size(-1)), targets.view(-1))
    accelerator.backward(loss)
    optimizer.step()
    optimizer.zero_grad()
