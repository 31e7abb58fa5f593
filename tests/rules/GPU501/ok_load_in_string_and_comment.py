import torch
import torch.distributed as dist

USAGE = "resume with torch.load(path) in a single-GPU run"


def resume(model, path, rank):
    dist.init_process_group("nccl", rank=rank)
    # torch.load(path) would put every tensor on GPU 0 here
    model.load_state_dict(torch.load(path, map_location={"cuda:0": f"cuda:{rank}"}))
