# An inner loop over chunks inside the training loop sums the chunk losses,
# and the sum is backpropagated after it: the inner forwards are training.
import torch
import torch.nn as nn

net = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 1))
optimizer = torch.optim.Adam(net.parameters(), lr=1e-3)
criterion = nn.MSELoss()

for step in range(1000):
    x, y = torch.randn(256, 32), torch.randn(256, 1)
    optimizer.zero_grad()
    warm = criterion(net(x[:8]), y[:8])
    total = warm
    for k in range(4):
        outputs = net(x[64 * k:64 * (k + 1)])
        total = total + criterion(outputs, y[64 * k:64 * (k + 1)])
    total.backward()
    optimizer.step()
