import torch
import torch.distributed as dist


def restore(model, path, local_rank):
    dist.init_process_group("nccl")
    model.load_state_dict(torch.load(path, lambda storage, loc: storage))
    return model.cuda(local_rank)
