import torch
import torch.nn.functional as F

from data import sample_batch
from model import Denoiser

model = Denoiser().cuda()
optimizer = torch.optim.Adam(model.parameters(), lr=2e-4)
loss_log = []
step = 0

while step < 50_000:
    clean = sample_batch(64).cuda()
    noisy = clean + 0.1 * torch.randn_like(clean)
    optimizer.zero_grad()
    loss = F.mse_loss(model(noisy), clean)
    loss.backward()
    optimizer.step()
    loss_log.append(loss)  # expect: GPU101
    step += 1

torch.save({"losses": [l.item() for l in loss_log]}, "log.pt")
