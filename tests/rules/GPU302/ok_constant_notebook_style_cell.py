# %%
import torch
import torch.nn as nn

device = "cuda" if torch.cuda.is_available() else "cpu"
model = nn.Sequential(nn.Linear(784, 256), nn.ReLU(), nn.Linear(256, 10)).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.01)

# %%
from data import train_loader

for epoch in range(5):
    for images, labels in train_loader:
        images = images.view(-1, 784).to(device)
        labels = labels.to(device)
        smooth = torch.full((images.size(0), 10), 0.01)
        smooth = smooth.to(device)
        smooth.scatter_(1, labels.unsqueeze(1), 0.91)
        loss = -(smooth * model(images).log_softmax(1)).sum(1).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
