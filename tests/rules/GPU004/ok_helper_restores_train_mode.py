import torch


def evaluate(model, loader):
    model.eval()
    with torch.no_grad():
        score = sum(model(x).sum().item() for x in loader)
    model.train()
    return score


def train(model, loader, val_loader, optimizer, eval_every):
    model.train()
    for step, (x, y) in enumerate(loader):
        optimizer.zero_grad()
        torch.nn.functional.mse_loss(model(x), y).backward()
        optimizer.step()
        if step % eval_every == 0:
            print(evaluate(model, val_loader))
