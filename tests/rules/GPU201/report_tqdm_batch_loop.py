import torch
import torch.nn as nn
from tqdm import tqdm

from data import train_loader
from model import Net

model = Net().cuda()
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)

for epoch in range(10):
    pbar = tqdm(train_loader, desc=f"epoch {epoch}")
    for i, (x, y) in enumerate(pbar):
        optimizer.zero_grad()
        loss = criterion(model(x.cuda()), y.cuda())
        loss.backward()
        optimizer.step()
        pbar.set_postfix(loss=loss.item(), mem=torch.cuda.memory_allocated() / 2**20)
        torch.cuda.empty_cache()  # expect: GPU201
