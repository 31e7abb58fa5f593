import torch
from torch.utils.data import DataLoader, TensorDataset

features = torch.load("features.pt")
targets = torch.load("targets.pt")
train = DataLoader(TensorDataset(features, targets), batch_size=256, shuffle=True)

model = torch.nn.Linear(features.size(1), 1).cuda()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
for epoch in range(10):
    for x, y in train:
        x.cuda()  # expect: GPU003
        optimizer.zero_grad()
        loss = torch.nn.functional.mse_loss(model(x).squeeze(1), y.cuda())
        loss.backward()
        optimizer.step()
