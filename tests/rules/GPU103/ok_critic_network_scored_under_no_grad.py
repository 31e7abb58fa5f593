# The value network scored in eval mode under no_grad.
import torch


@torch.no_grad()
def mean_state_value(critic, states):
    critic.eval()
    total = 0.0
    for state in states:
        total += critic(state.unsqueeze(0)).item()
    critic.train()
    return total / len(states)
