import torch


def run_validation(model, loader, metrics):
    model.eval()
    results = {name: 0.0 for name in metrics}
    with torch.no_grad():
        for batch in loader:
            out = model(batch["input"])
            for name, fn in metrics.items():
                results[name] += fn(out, batch["target"]).item()
    return results


def train(model, loader, val_loader, optimizer, metrics, epochs):
    model.train()
    history = []
    for epoch in range(epochs):
        for batch in loader:
            optimizer.zero_grad()
            loss = torch.nn.functional.l1_loss(model(batch["input"]), batch["target"])
            loss.backward()
            optimizer.step()
        history.append(run_validation(model, val_loader, metrics))  # expect: GPU004
    return history
