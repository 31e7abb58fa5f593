"""FSDP gathers the full state without offloading it: the checkpoint holds
tensors of rank 0's GPU."""
import argparse

import torch
import torch.distributed as dist
from torch.distributed.fsdp import FullStateDictConfig, StateDictType
from torch.distributed.fsdp import FullyShardedDataParallel as FSDP

from no_offload_demo_model import build_no_offload_demo_model


def save_full_state(model, optimizer, path):
    gather = FullStateDictConfig(rank0_only=True)
    with FSDP.state_dict_type(model, StateDictType.FULL_STATE_DICT, gather):
        state = {"model": model.state_dict(), "optimizer": FSDP.optim_state_dict(model, optimizer)}
    if dist.get_rank() == 0:
        torch.save(state, path)


def resume_full_state(model, optimizer, path):
    state = torch.load(path)  # expect: GPU501
    with FSDP.state_dict_type(model, StateDictType.FULL_STATE_DICT):
        model.load_state_dict(state["model"])
        optimizer.load_state_dict(FSDP.optim_state_dict_to_load(model, optimizer, state["optimizer"]))


def main(args):
    dist.init_process_group("nccl")
    model = FSDP(build_no_offload_demo_model(), device_id=torch.cuda.current_device())
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
    if args.resume:
        resume_full_state(model, optimizer, args.resume)
    save_full_state(model, optimizer, args.out)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--resume", default="")
    parser.add_argument("--out", default="full.pt")
    main(parser.parse_args())
