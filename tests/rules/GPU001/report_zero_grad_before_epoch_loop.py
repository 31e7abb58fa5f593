import torch
import torch.nn as nn

from data import build_loaders
from model import ResNetSmall

train_loader, _ = build_loaders(batch_size=256)
model = ResNetSmall(num_classes=10).cuda()
criterion = nn.CrossEntropyLoss(label_smoothing=0.1)
optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9, weight_decay=5e-4)
scheduler = torch.optim.lr_scheduler.CosineAnnealingLR(optimizer, T_max=30)

optimizer.zero_grad(set_to_none=True)
for epoch in range(30):
    model.train()
    for images, labels in train_loader:
        images = images.cuda(non_blocking=True)
        labels = labels.cuda(non_blocking=True)
        loss = criterion(model(images), labels)
        loss.backward()  # expect: GPU001
        optimizer.step()
    scheduler.step()
    torch.save(model.state_dict(), f"ckpt_{epoch}.pt")
