import os

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

from model import GPT


def main():
    dist.init_process_group("nccl")
    local_rank = int(os.environ["LOCAL_RANK"])
    torch.cuda.set_device(local_rank)
    model = GPT(vocab_size=50257)
    model.cuda(local_rank)
    model = DDP(model, device_ids=[local_rank])
    model.train()
    optimizer = torch.optim.AdamW(model.parameters(), lr=6e-4)
    for x, y in train_loader:
        x = x.cuda(local_rank, non_blocking=True)
        y = y.cuda(local_rank, non_blocking=True)
        logits, loss = model(x, y)
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        optimizer.step()
    dist.destroy_process_group()
