import torch


def train(model, loader, probe, optimizer, log_every):
    model.train()
    for step, (x, y) in enumerate(loader):
        optimizer.zero_grad()
        torch.nn.functional.cross_entropy(model(x), y).backward()
        optimizer.step()
        if step % log_every == 0:
            model.eval()
            with torch.no_grad():
                print(model(probe).softmax(-1).max().item())
            model.train()
