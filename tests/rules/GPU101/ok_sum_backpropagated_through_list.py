# The summed loss is backpropagated through torch.autograd.backward([...]).
import torch
import torch.autograd as autograd
import torch.nn.functional as F


def finish_episode(saved_values, rewards, optimizer):
    value_loss = 0
    for value, r in zip(saved_values, rewards):
        value_loss += F.smooth_l1_loss(value, torch.tensor([r]))
    optimizer.zero_grad()
    final_nodes = [value_loss]
    autograd.backward(final_nodes)
    optimizer.step()
