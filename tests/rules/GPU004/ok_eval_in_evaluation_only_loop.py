import torch


def evaluate(model, loader):
    model.eval()
    with torch.no_grad():
        return [model(x) for x in loader]


def sweep(models, loader):
    results = {}
    for name, model in models.items():
        results[name] = evaluate(model, loader)
    return results
