# The model's forward returns a Python float beside its outputs: keeping the float keeps no graph.
import torch
import torch.nn as nn


class PoolNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.score = nn.Linear(16, 1)
        self.head = nn.Linear(16, 2)

    def forward(self, x):
        keep = self.score(x).squeeze(-1) > 0
        pooled = x[keep]
        ratio = pooled.size(0) / x.size(0)
        return self.head(pooled.mean(0, keepdim=True)), ratio


model = PoolNet().cuda()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
ratios = []
for x, y in loader:
    out, ratio = model(x.cuda())
    loss = nn.functional.cross_entropy(out, y.cuda())
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    ratios.append(ratio)
print(sum(ratios) / len(ratios))
