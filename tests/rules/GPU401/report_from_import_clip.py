import torch
from torch.nn.utils import clip_grad_norm_

from data import get_loader
from nets import UNet


def train(epochs, max_norm=0.5):
    net = UNet(n_channels=3, n_classes=2).cuda()
    opt = torch.optim.RMSprop(net.parameters(), lr=1e-5, momentum=0.9)
    grad_scaler = torch.cuda.amp.GradScaler(enabled=True)
    criterion = torch.nn.CrossEntropyLoss()
    for epoch in range(epochs):
        for batch in get_loader("train"):
            images, masks = batch["image"].cuda(), batch["mask"].cuda()
            with torch.autocast("cuda"):
                loss = criterion(net(images), masks)
            opt.zero_grad(set_to_none=True)
            grad_scaler.scale(loss).backward()
            clip_grad_norm_(net.parameters(), max_norm)  # expect: GPU401
            grad_scaler.step(opt)
            grad_scaler.update()
