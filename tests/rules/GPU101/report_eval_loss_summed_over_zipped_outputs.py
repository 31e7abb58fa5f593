# The evaluation loop sums per-sequence losses over `zip(output, targets)`:
# each item of the model output carries its graph, so the epoch total keeps
# every batch's graph alive (no backward, grad on).
import torch


def run_epoch(model, criterion, optimizer, train_batches, eval_batches):
    epoch_train, epoch_eval = 0.0, 0
    model.train()
    for source, targets in train_batches:
        optimizer.zero_grad()
        batch_loss = 0
        for sequence, target in zip(model(source, targets), targets):
            batch_loss += criterion(sequence, target)
        batch_loss.backward()
        optimizer.step()
        epoch_train += batch_loss.item()
    model.eval()
    for source, targets in eval_batches:
        output = model(source, targets)  # expect: GPU103
        batch_eval = 0
        for sequence, target in zip(output, targets):
            batch_eval += criterion(sequence, target)
        epoch_eval += batch_eval  # expect: GPU101
    return epoch_train, epoch_eval
