import torch
import torch.distributed as dist


def resume(model, path, local_rank):
    dist.init_process_group("nccl")
    torch.cuda.set_device(local_rank)
    checkpoint = torch.load(path, map_location="cpu")
    model.load_state_dict(checkpoint["model"])
