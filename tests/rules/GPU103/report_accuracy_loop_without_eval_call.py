# An accuracy loop after training runs with grad on, without .eval() or an evaluation-named function.
import torch


def train_then_score(model, mlp, optimizer, train_loader, watermark_loader, criterion):
    for x, y in train_loader:
        loss = criterion(mlp(model(x)), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()

    watermark_accuracy = 0
    for counter, (x_batch, y_batch) in enumerate(watermark_loader):
        logits = mlp(model(x_batch))  # pedantic: GPU103
        watermark_accuracy += (logits.argmax(1) == y_batch).float().mean().item()
    return watermark_accuracy / (counter + 1)
