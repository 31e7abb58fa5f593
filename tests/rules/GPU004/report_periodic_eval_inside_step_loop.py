import torch


def train(model, loader, val_batches, optimizer, criterion, eval_every=500):
    model.train()
    for step, (x, y) in enumerate(loader):
        loss = criterion(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if step % eval_every == 0:
            model.eval()  # expect: GPU004
            with torch.no_grad():
                val_loss = sum(criterion(model(a), b).item() for a, b in val_batches)
            print(step, val_loss)
