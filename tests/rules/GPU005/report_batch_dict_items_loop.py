import torch
import torch.nn.functional as F
from torch.utils.checkpoint import checkpoint


def fit(model, train_loader, optimizer, epochs):
    model.train()
    for epoch in range(epochs):
        for step, (pixels, target) in enumerate(train_loader):
            pixels, target = pixels.cuda(), target.cuda()
            logits = checkpoint(model, pixels)  # expect: GPU005
            loss = F.cross_entropy(logits, target)
            optimizer.zero_grad(set_to_none=True)
            loss.backward()
            optimizer.step()
