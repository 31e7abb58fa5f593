import torch


def evaluate(ema_model, loader):
    ema_model.eval()
    with torch.no_grad():
        return sum(ema_model(x).sum().item() for x, _ in loader)


def train(model, ema_model, loader, val_loader, optimizer, decay=0.999):
    model.train()
    for epoch in range(10):
        for x, y in loader:
            optimizer.zero_grad()
            torch.nn.functional.cross_entropy(model(x), y).backward()
            optimizer.step()
            with torch.no_grad():
                for p_ema, p in zip(ema_model.parameters(), model.parameters()):
                    p_ema.mul_(decay).add_(p, alpha=1 - decay)
        print(evaluate(ema_model, val_loader))
