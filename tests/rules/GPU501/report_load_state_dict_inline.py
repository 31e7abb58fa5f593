import torch
import torch.distributed as dist


def setup(rank, world_size, model, weights):
    dist.init_process_group("nccl", rank=rank, world_size=world_size)
    torch.cuda.set_device(rank)
    model.load_state_dict(torch.load(weights))  # pedantic: GPU501
    return torch.nn.parallel.DistributedDataParallel(model.cuda(rank), device_ids=[rank])
