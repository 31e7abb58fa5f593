# Every 500 steps the training loop scores the model on test windows, in a
# loop of its own with no .eval() and grad on: each scoring forward builds a
# graph that no backward uses.
import numpy as np
import torch
import torch.nn as nn

net = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 1), nn.Sigmoid())
optimizer = torch.optim.Adam(net.parameters(), lr=1e-3)
criterion = nn.BCELoss()
train_x, train_y = np.random.rand(512, 32), np.random.rand(512, 1)
test_x = np.random.rand(256, 32)

for step in range(20001):
    idx = np.random.randint(0, 512, 64)
    optimizer.zero_grad()
    outputs = net(torch.from_numpy(train_x[idx]).float())
    loss = criterion(outputs, torch.from_numpy(train_y[idx]).float())
    loss.backward()
    optimizer.step()
    if step % 500 == 0:
        votes = np.zeros(256)
        for k in range(256 // 64):
            window = torch.from_numpy(test_x[64 * k:64 * (k + 1)]).float()
            outputs = net(window)  # expect: GPU103
            votes[64 * k:64 * (k + 1)] = outputs.data.numpy()[:, 0]
        print(step, (votes > 0.5).mean())
