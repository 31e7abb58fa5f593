import torch
import torch.nn.functional as F

from data import make_loader
from model import Net

model = Net().cuda()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
loader = make_loader(batch_size=32)
all_losses = []

for epoch in range(10):
    for i, (x, y) in enumerate(loader):
        optimizer.zero_grad()
        loss = F.cross_entropy(model(x.cuda()), y.cuda())
        loss.backward()
        optimizer.step()
        all_losses.append(loss)  # expect: GPU101
    print(f"epoch {epoch}: last loss {all_losses[-1].item():.4f}")

torch.save(torch.stack(all_losses).cpu(), "losses.pt")
