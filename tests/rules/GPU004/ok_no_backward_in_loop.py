import torch


def export_predictions(model, loaders):
    for name, loader in loaders.items():
        model.eval()
        with torch.no_grad():
            preds = [model(x).argmax(1) for x in loader]
        torch.save(preds, f"{name}.pt")
