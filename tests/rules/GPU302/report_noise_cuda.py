import torch
import torch.nn.functional as F

from models import Denoiser
from data import get_loader

model = Denoiser().cuda()
opt = torch.optim.AdamW(model.parameters(), lr=2e-4)
loader = get_loader(batch_size=64)

for step, clean in enumerate(loader):
    clean = clean.cuda(non_blocking=True)
    noise = torch.randn(clean.shape[0], 3, 64, 64).cuda()  # expect: GPU302
    pred = model(clean + 0.1 * noise)
    loss = F.mse_loss(pred, noise)
    opt.zero_grad(set_to_none=True)
    loss.backward()
    opt.step()
    if step % 100 == 0:
        print(step, loss.item())
