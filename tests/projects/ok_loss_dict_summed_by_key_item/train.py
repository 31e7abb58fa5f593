# Logging sums each term of the loss dict by key as Python floats (.item()): nothing keeps a graph.
from collections import defaultdict

import torch

from data import detection_loader
from losses import detection_losses, weighted_total
from model import Detector

model = Detector().cuda()
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4, weight_decay=1e-4)
loader = detection_loader("data/voc", batch_size=16)
log_every = 50

for epoch in range(50):
    running = defaultdict(float)
    for step, (images, targets) in enumerate(loader):
        images = images.cuda()
        targets = {k: v.cuda() for k, v in targets.items()}
        outputs = model(images)
        loss_dict = detection_losses(outputs, targets)
        loss = weighted_total(loss_dict)
        optimizer.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 0.1)
        optimizer.step()
        for k, v in loss_dict.items():
            running[k] += v.item()
        if (step + 1) % log_every == 0:
            print(epoch, step, {k: f"{s / log_every:.4f}" for k, s in running.items()})
            running.clear()
