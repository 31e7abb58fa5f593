import torch
import torch.distributed as dist
from torch.distributed.fsdp import FullyShardedDataParallel


class Trainer:
    def __init__(self, model, optimizer, checkpoint_path=None):
        self.model = FullyShardedDataParallel(model)
        self.optimizer = optimizer
        if checkpoint_path is not None:
            self.resume(checkpoint_path)

    def resume(self, path):
        state = torch.load(path)  # expect: GPU501
        self.optimizer.load_state_dict(state["optimizer"])
        return state["epoch"]


def main(build, path):
    dist.init_process_group("nccl")
    model = build().cuda()
    return Trainer(model, torch.optim.AdamW(model.parameters()), checkpoint_path=path)
