# A Q-network agent. act() picks an action by running the network's
# forward; training rollouts call it in train mode, evaluation in eval mode.
import random

import torch.nn as nn


class QAgent(nn.Module):
    def __init__(self, obs_dim, n_actions, hidden=128):
        super().__init__()
        self.n_actions = n_actions
        self.body = nn.Sequential(nn.Linear(obs_dim, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU())
        self.q_head = nn.Linear(hidden, n_actions)

    def forward(self, obs):
        return self.q_head(self.body(obs))

    def act(self, obs, epsilon=0.0):
        if random.random() < epsilon:
            return random.randrange(self.n_actions)
        q_values = self(obs)
        return int(q_values.argmax(dim=-1).item())
