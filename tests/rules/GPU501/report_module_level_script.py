import os

import torch
import torch.distributed as dist

from model import GPT

dist.init_process_group(backend="nccl")
ddp_local_rank = int(os.environ["LOCAL_RANK"])
device = f"cuda:{ddp_local_rank}"
torch.cuda.set_device(device)
checkpoint = torch.load(os.path.join("out", "ckpt.pt"))  # expect: GPU501
model = GPT(checkpoint["config"])
model.load_state_dict(checkpoint["model"])
model.to(device)
optimizer = torch.optim.AdamW(model.parameters(), lr=6e-4)
optimizer.load_state_dict(checkpoint["optimizer"])
