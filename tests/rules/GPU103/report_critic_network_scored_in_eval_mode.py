# An actor-critic's value network is a network, not a criterion: scored in eval mode with grad on.
import torch


def mean_state_value(critic, states):
    critic.eval()
    total = 0.0
    for state in states:
        value = critic(state.unsqueeze(0))  # expect: GPU103
        total += value.item()
    critic.train()
    return total / len(states)
