"""The fine-tuning script starts a process group from the launcher's
LOCAL_RANK: one process per GPU, each resuming the same checkpoint."""
import argparse
import os

import torch
import torch.distributed as dist

from finetune_ddp_demo_model import build_finetune_ddp_demo_model

parser = argparse.ArgumentParser()
parser.add_argument("--checkpoint", required=True)
args = parser.parse_args()

dist.init_process_group("nccl")
torch.cuda.set_device(int(os.environ["LOCAL_RANK"]))
model = build_finetune_ddp_demo_model().cuda()
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-5)
checkpoint = torch.load(args.checkpoint)  # expect: GPU501
model.load_state_dict(checkpoint["model"])
optimizer.load_state_dict(checkpoint["optimizer"])
