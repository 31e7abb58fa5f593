# Accelerate evaluation without no_grad: the gathered loss still carries the graph and every batch's is kept.
import torch
import torch.nn.functional as F
from accelerate import Accelerator

from data import tabular_loaders
from model import TabularMLP

accelerator = Accelerator(mixed_precision="bf16")
train_loader, eval_loader, n_features = tabular_loaders(batch_size=1024)
model = TabularMLP(n_features)
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
model, optimizer, train_loader, eval_loader = accelerator.prepare(model, optimizer, train_loader, eval_loader)

for epoch in range(20):
    model.train()
    train_losses = []
    for x, y in train_loader:
        loss = F.mse_loss(model(x), y)
        accelerator.backward(loss)
        optimizer.step()
        optimizer.zero_grad()
        train_losses.append(accelerator.gather(loss.detach()))

    model.eval()
    all_losses = []
    for x, y in eval_loader:
        pred = model(x)  # expect: GPU103
        loss = F.mse_loss(pred, y)
        all_losses.append(accelerator.gather(loss))  # expect: GPU101
    train_mse = torch.stack(train_losses).mean().item()
    eval_mse = torch.stack(all_losses).mean().item()
    accelerator.print(f"epoch {epoch} train {train_mse:.4f} eval {eval_mse:.4f}")
