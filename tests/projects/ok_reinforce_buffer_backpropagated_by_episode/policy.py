import torch.nn as nn
import torch.nn.functional as F


class Policy(nn.Module):
    def __init__(self, observations=4, actions=2):
        super().__init__()
        self.hidden = nn.Linear(observations, 128)
        self.head = nn.Linear(128, actions)

    def forward(self, state):
        return F.softmax(self.head(F.relu(self.hidden(state))), dim=-1)
