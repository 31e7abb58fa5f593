import torch


def update(policy, optimizer, episodes):
    for log_probs, returns in episodes:
        loss = -(torch.stack(log_probs) * returns).sum()
        optimizer.zero_grad()
        loss.backward(retain_graph=True)  # expect: GPU104
        optimizer.step()
