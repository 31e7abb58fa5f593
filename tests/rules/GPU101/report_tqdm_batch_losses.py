import numpy as np
import torch
import torch.nn as nn
from tqdm import tqdm

from data import loader
from model import CNN

model = CNN().cuda()
optimizer = torch.optim.Adam(model.parameters(), lr=3e-4)
criterion = nn.CrossEntropyLoss()

for epoch in range(10):
    batch_losses = []
    for images, labels in tqdm(loader, desc=f"epoch {epoch}"):
        optimizer.zero_grad()
        loss = criterion(model(images.cuda()), labels.cuda())
        loss.backward()
        optimizer.step()
        batch_losses.append(loss)  # expect: GPU101
    print(epoch, np.mean([b.item() for b in batch_losses]))
