import torch
import torch.nn.functional as F

from data import loader
from model import TransformerLM

model = TransformerLM(vocab=50257, d_model=512, n_layers=8).cuda()
optimizer = torch.optim.AdamW(model.parameters(), lr=3e-4, fused=True)

for step, (tokens, targets) in enumerate(loader):
    tokens, targets = tokens.cuda(), targets.cuda()
    for p in model.parameters():
        p.grad = None
    logits = model(tokens)
    loss = F.cross_entropy(logits.view(-1, logits.size(-1)), targets.view(-1))
    loss.backward()
    optimizer.step()
    if step % 100 == 0:
        print(step, loss.item())
