# A Q-network agent; act() picks the greedy action by running the
# network's forward on one observation.
import torch
import torch.nn as nn


class QAgent(nn.Module):
    def __init__(self, obs_dim, n_actions, hidden=128):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(obs_dim, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU())
        self.q_head = nn.Linear(hidden, n_actions)

    def forward(self, obs):
        return self.q_head(self.body(obs))

    def act(self, obs):
        q_values = self(obs)  # expect: GPU103
        return int(q_values.argmax(dim=-1).item())
