"""A GradScaler's state is a few Python numbers: there is nothing to put
on a GPU."""
import os

import torch
import torch.distributed as dist


def save_scaler(scaler, run_dir):
    torch.save(scaler.state_dict(), os.path.join(run_dir, "scaler.pt"))


def resume_scaler(scaler, run_dir):
    scaler.load_state_dict(torch.load(os.path.join(run_dir, "scaler.pt")))


def main(run_dir):
    dist.init_process_group("nccl")
    local_rank = int(os.environ["LOCAL_RANK"])
    torch.cuda.set_device(local_rank)
    scaler = torch.cuda.amp.GradScaler()
    resume_scaler(scaler, run_dir)
    save_scaler(scaler, run_dir)


if __name__ == "__main__":
    main("runs/last")
