import torch
import torch.nn.functional as F

from data import infinite_batches
from model import build_model

model = build_model().cuda()
optimizer = torch.optim.AdamW(model.parameters(), lr=3e-4)
batches = infinite_batches()
step = 0
while step < 10_000:
    tokens, targets = next(batches)
    logits = model(tokens.cuda())
    loss = F.cross_entropy(logits.view(-1, logits.size(-1)), targets.cuda().view(-1))
    loss.backward(retain_graph=True)  # expect: GPU104
    optimizer.step()
    optimizer.zero_grad(set_to_none=True)
    step += 1
