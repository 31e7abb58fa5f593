import torch as T
import torch.nn as nn
from tqdm import tqdm

from data import get_loader
from model import MLP

device = T.device("cuda")
loader = get_loader(batch_size=512)
model = MLP(784, 10).to(device)
opt = T.optim.RMSprop(model.parameters(), lr=1e-3)
loss_fn = nn.CrossEntropyLoss()

for epoch in range(20):
    pbar = tqdm(loader, desc=f"epoch {epoch}")
    for i, (x, y) in enumerate(pbar):
        x, y = x.to(device).view(x.size(0), -1), y.to(device)
        loss = loss_fn(model(x), y)
        loss.backward()  # expect: GPU001
        opt.step()
        pbar.set_postfix(loss=f"{loss.item():.3f}")
