import torch


def train(model, loader, optimizer, task_losses):
    for x, ys in loader:
        optimizer.zero_grad()
        outputs = model(x)
        for i, (loss_fn, y) in enumerate(zip(task_losses, ys)):
            loss = loss_fn(outputs[i], y)
            loss.backward(retain_graph=i < len(task_losses) - 1)
        optimizer.step()
