import torch


@torch.no_grad()
def evaluate_with_jitter(model, loader, device, scale=0.05):
    model.eval()
    correct = total = 0
    for images, labels in loader:
        images, labels = images.to(device), labels.to(device)
        jitter = torch.rand(images.size(0), 1, 1, 1).to(device)  # expect: GPU302
        logits = model(images * (1 + scale * (jitter - 0.5)))
        correct += (logits.argmax(1) == labels).sum().item()
        total += labels.numel()
    return correct / total
