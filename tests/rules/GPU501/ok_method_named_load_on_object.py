import torch
from torch.nn.parallel import DistributedDataParallel


class Checkpointer:
    def load(self, path):
        return torch.load(path, map_location="cpu")


def resume(model, path):
    state = Checkpointer().load(path)
    model.load_state_dict(state)
    return DistributedDataParallel(model)
