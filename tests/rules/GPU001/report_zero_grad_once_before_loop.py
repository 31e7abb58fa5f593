import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader
from torchvision import datasets, transforms

from models import Net

train_set = datasets.MNIST("data", train=True, download=True, transform=transforms.ToTensor())
train_loader = DataLoader(train_set, batch_size=128, shuffle=True, num_workers=4)

model = Net().cuda()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)

model.train()
optimizer.zero_grad()
for batch_idx, (data, target) in enumerate(train_loader):
    data, target = data.cuda(), target.cuda()
    output = model(data)
    loss = F.nll_loss(output, target)
    loss.backward()  # expect: GPU001
    optimizer.step()
    if batch_idx % 100 == 0:
        print(f"[{batch_idx * len(data)}/{len(train_set)}] loss={loss.item():.4f}")
