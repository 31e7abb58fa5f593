import numpy as np
import torch
import torch.nn as nn

from data import loader
from model import Net

model = Net().cuda()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
criterion = nn.CrossEntropyLoss()
train_preds = []

for x, y in loader:
    optimizer.zero_grad()
    out = model(x.cuda())
    loss = criterion(out, y.cuda())
    loss.backward()
    optimizer.step()
    train_preds.append(out.argmax(dim=1).cpu().numpy())

np.save("train_preds.npy", np.concatenate(train_preds))
