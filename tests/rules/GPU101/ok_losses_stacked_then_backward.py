# Per-step losses are stacked, summed and backpropagated in the same call.
import torch
import torch.nn.functional as F


def finish_episode(saved_actions, returns, optimizer):
    policy_losses = []
    value_losses = []
    for (log_prob, value), R in zip(saved_actions, returns):
        advantage = R - value.item()
        policy_losses.append(-log_prob * advantage)
        value_losses.append(F.smooth_l1_loss(value, torch.tensor([R])))
    optimizer.zero_grad()
    loss = torch.stack(policy_losses).sum() + torch.stack(value_losses).sum()
    loss.backward()
    optimizer.step()
