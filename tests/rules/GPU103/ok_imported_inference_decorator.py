# An imported decorator named like inference_mode turns grad off.
import torch
from utils.torch_utils import smart_inference_mode


@smart_inference_mode()
def run(model, dataloader, criterion, device):
    model.eval()
    pred, targets, loss = [], [], 0
    for images, labels in dataloader:
        images, labels = images.to(device), labels.to(device)
        y = model(images)
        pred.append(y.argsort(1, descending=True)[:, :5])
        targets.append(labels)
        loss += criterion(y, labels)
    pred, targets = torch.cat(pred), torch.cat(targets)
    correct = (targets[:, None] == pred).float()
    return correct[:, 0].mean().item(), loss / len(dataloader)
