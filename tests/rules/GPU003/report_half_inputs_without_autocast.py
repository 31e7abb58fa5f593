import torch
import torch.nn as nn

from dataset import get_train_loader

model = nn.Sequential(
    nn.Conv2d(3, 32, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(32, 10)
).cuda()
model.half()  # fp16 weights, no autocast
optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
criterion = nn.CrossEntropyLoss()

for x, y in get_train_loader(batch_size=128):
    x = x.cuda()
    x.half()  # expect: GPU003
    y = y.cuda()
    optimizer.zero_grad()
    loss = criterion(model(x).float(), y)
    loss.backward()
    optimizer.step()
