# An activation layer built in the loop is not the evaluated model.
import torch
import torch.nn as nn


def val_epoch(model, loader):
    model.eval()
    preds = []
    for x, y in loader:
        outputs = model(x)  # expect: GPU103
        sigmoid = nn.Sigmoid()
        output = torch.argmax(sigmoid(outputs), dim=1)
        preds.extend(output.detach().cpu().tolist())
    return preds
