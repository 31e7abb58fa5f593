"""Each rank saves and loads its own optimizer shard, named by its index:
the tensors go back to the GPU of the rank that wrote them."""
import os

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel


class ShardedTrainingState:
    def __init__(self, model, optimizer, process_index):
        self.model = DistributedDataParallel(model, device_ids=[process_index])
        self.optimizer = optimizer
        self.process_index = process_index

    def save_shard(self, folder):
        shard = os.path.join(folder, f"optimizer_rank{self.process_index}.bin")
        torch.save(self.optimizer.state_dict(), shard)

    def restore_shard(self, folder):
        shard = os.path.join(folder, f"optimizer_rank{self.process_index}.bin")
        self.optimizer.load_state_dict(torch.load(shard))


def resume_shards(model, optimizer, process_index, folder):
    state = ShardedTrainingState(model, optimizer, process_index)
    state.restore_shard(folder)
    return state


if __name__ == "__main__":
    dist.init_process_group("nccl")
    rank = int(os.environ["LOCAL_RANK"])
    net = torch.nn.Linear(8, 8).cuda(rank)
    resume_shards(net, torch.optim.AdamW(net.parameters()), rank, "checkpoints/last")
