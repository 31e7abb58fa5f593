"""Rank 0 saves one optimizer file and every rank loads it: all of them put
its state on GPU 0."""
import os

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel


class SharedTrainingState:
    def __init__(self, model, optimizer, local_rank):
        self.model = DistributedDataParallel(model, device_ids=[local_rank])
        self.optimizer = optimizer

    def save_state(self, folder):
        if dist.get_rank() == 0:
            torch.save(self.optimizer.state_dict(), os.path.join(folder, "optimizer.bin"))

    def restore_state(self, folder):
        self.optimizer.load_state_dict(torch.load(os.path.join(folder, "optimizer.bin")))  # expect: GPU501


def resume_shared(model, optimizer, local_rank, folder):
    state = SharedTrainingState(model, optimizer, local_rank)
    state.restore_state(folder)
    return state


if __name__ == "__main__":
    dist.init_process_group("nccl")
    rank = int(os.environ["LOCAL_RANK"])
    net = torch.nn.Linear(8, 8).cuda(rank)
    resume_shared(net, torch.optim.AdamW(net.parameters()), rank, "checkpoints/last")
