import torch

from data import loader
from model import UNet

model = UNet().cuda()
optimizer = torch.optim.RMSprop(model.parameters(), lr=1e-5, momentum=0.9)
grad_scaler = torch.cuda.amp.GradScaler(enabled=False)

for images, masks in loader:
    with torch.autocast("cuda", enabled=False):
        loss = torch.nn.functional.binary_cross_entropy_with_logits(model(images), masks)
    optimizer.zero_grad(set_to_none=True)
    grad_scaler.scale(loss).backward()
    torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    grad_scaler.step(optimizer)
    grad_scaler.update()
