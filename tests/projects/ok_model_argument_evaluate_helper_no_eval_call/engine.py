# evaluate() receives the model as a parameter and runs it with grad on; no caller switches it to eval mode, so only the shape of the loop says it evaluates (reported with --pedantic).
import torch.nn.functional as F


def train_one_epoch(model, loader, optimizer, device):
    model.train()
    running = 0.0
    for x, y in loader:
        x, y = x.to(device), y.to(device)
        optimizer.zero_grad()
        loss = F.cross_entropy(model(x), y)
        loss.backward()
        optimizer.step()
        running += loss.item()
    return running / len(loader)


def evaluate(model, loader, device):
    total_loss, correct = 0.0, 0
    for x, y in loader:
        x, y = x.to(device), y.to(device)
        out = model(x)  # pedantic: GPU103
        total_loss += F.cross_entropy(out, y, reduction="sum").item()
        correct += (out.argmax(dim=1) == y).sum().item()
    n = len(loader.dataset)
    return total_loss / n, correct / n
