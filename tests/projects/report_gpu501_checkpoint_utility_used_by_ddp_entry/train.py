import os

import torch
import torch.distributed as dist
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel

from net import Net
from utils.checkpoint import restore_checkpoint, save_checkpoint


def main():
    dist.init_process_group("nccl")
    local_rank = int(os.environ["LOCAL_RANK"])
    torch.cuda.set_device(local_rank)
    model = DistributedDataParallel(Net().cuda(), device_ids=[local_rank])
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
    start = restore_checkpoint("last.pt", model.module, optimizer) if os.path.exists("last.pt") else 0
    for epoch in range(start, 10):
        x = torch.randn(64, 32, device="cuda")
        loss = F.cross_entropy(model(x), torch.randint(0, 10, (64,), device="cuda"))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if dist.get_rank() == 0:
            save_checkpoint("last.pt", model.module, optimizer, epoch)


if __name__ == "__main__":
    main()
