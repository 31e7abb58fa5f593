import torch
import torch.nn as nn

from data import train_loader
from model import TinyViT

model = TinyViT().cuda()
optimizer = torch.optim.AdamW(model.parameters(), lr=5e-4)
criterion = nn.CrossEntropyLoss()

for epoch in range(100):
    model.train()
    for images, labels in train_loader:
        logits = model(images.cuda())
        loss = criterion(logits, labels.cuda())
        loss.backward()  # expect: GPU001
        optimizer.step()
    optimizer.zero_grad()
    print(f"epoch {epoch} finished")
