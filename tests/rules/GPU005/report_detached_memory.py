import torch.nn as nn
from torch.utils.checkpoint import checkpoint


class RecurrentMemory(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.update = nn.GRUCell(dim, dim)

    def forward(self, memory, step_input):
        memory = memory.detach()
        step = step_input.detach()
        return checkpoint(self.update, step, memory)  # expect: GPU005
