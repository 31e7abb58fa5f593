import torch
import torch.nn as nn
from torch.utils.checkpoint import checkpoint_sequential

model = nn.Sequential(*[nn.Sequential(nn.Linear(512, 512), nn.ReLU()) for _ in range(16)]).cuda()
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
loader = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(torch.randn(1024, 512)), batch_size=32)

for (x,) in loader:
    x = x.cuda(non_blocking=True)
    out = checkpoint_sequential(model, 4, x)  # expect: GPU005
    loss = out.pow(2).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
