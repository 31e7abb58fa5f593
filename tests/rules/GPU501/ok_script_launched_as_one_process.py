"""A fine-tuning script that kept the --local_rank option of the training
script it was copied from, and never starts a process group: one process."""
import argparse

import torch

from finetune_demo_model import build_finetune_demo_model

parser = argparse.ArgumentParser()
parser.add_argument("--local_rank", type=int, default=0)
parser.add_argument("--checkpoint", required=True)
args = parser.parse_args()

torch.cuda.set_device(args.local_rank)
model = build_finetune_demo_model().cuda()
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-5)
checkpoint = torch.load(args.checkpoint)
model.load_state_dict(checkpoint["model"])
optimizer.load_state_dict(checkpoint["optimizer"])
torch.save({"model": model.state_dict(), "optimizer": optimizer.state_dict()}, "finetuned.pt")
