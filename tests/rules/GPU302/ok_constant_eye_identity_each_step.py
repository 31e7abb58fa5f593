import torch
import torch.nn.functional as F

from model import ContrastiveEncoder
from data import pair_loader

device = torch.device("cuda")
encoder = ContrastiveEncoder().to(device)
optimizer = torch.optim.AdamW(encoder.parameters(), lr=3e-4, weight_decay=0.05)
temperature = 0.07

for epoch in range(100):
    for view_a, view_b in pair_loader:
        za = F.normalize(encoder(view_a.to(device)), dim=1)
        zb = F.normalize(encoder(view_b.to(device)), dim=1)
        logits = za @ zb.t() / temperature
        targets = torch.arange(za.size(0)).to(device)
        off_diagonal = 1 - torch.eye(za.size(0)).to(device)
        loss = F.cross_entropy(logits, targets) + 0.01 * (logits * off_diagonal).pow(2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
