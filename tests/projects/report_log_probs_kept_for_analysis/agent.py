# An agent that keeps every step's log-prob for later analysis: nothing
# ever backpropagates or empties that history, so each step's graph stays.
import torch
from torch.distributions import Categorical

from policy import Policy


class Agent:
    def __init__(self):
        self.policy = Policy()
        self.history = []

    def select_action(self, state):
        probs = self.policy(state)
        m = Categorical(probs)
        action = m.sample()
        self.history.append(m.log_prob(action))  # expect: GPU101
        return action.item()

    def entropy_report(self):
        return torch.stack([h.exp() for h in self.history]).mean().item()
