"""Each pass of the loop draws a training batch's noise on the host and
moves it, then trains on it with one optimizer step. Every 500 steps an
evaluation loop runs inside the same body: the outer loop is still the
step loop, since it updates the model itself on every pass."""
import torch
import torch.nn.functional as F


def train(model, optimizer, data, targets, eval_batches, steps=10000, batch=64, sigma=0.1):
    device = next(model.parameters()).device
    for step in range(steps):
        rows = torch.randint(0, data.size(0), (batch,), device=device)
        noise = torch.randn(batch, data.size(1)).to(device) * sigma  # expect: GPU302
        loss = F.mse_loss(model(data[rows] + noise), targets[rows])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if step % 500 == 0:
            with torch.no_grad():
                err = sum(F.mse_loss(model(x), y).item() for x, y in eval_batches)
                for x, y in eval_batches:
                    err += F.l1_loss(model(x), y).item()
            print(step, err)
