import torch as T
import torch.nn as nn

from data import loader
from model import GRUClassifier

model = GRUClassifier(vocab=20000, hidden=256).cuda()
opt = T.optim.Adam(model.parameters(), lr=1e-3)
loss_fn = nn.BCEWithLogitsLoss()
train_losses = []

for epoch in range(8):
    for tokens, labels in loader:
        opt.zero_grad()
        logits = model(tokens.cuda()).squeeze(-1)
        loss = loss_fn(logits, labels.float().cuda())
        loss.backward()
        opt.step()
        train_losses.append(loss)  # expect: GPU101
    T.save(train_losses, f"losses_{epoch}.pt")
