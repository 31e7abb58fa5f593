import torch
from torch.nn.parallel import DistributedDataParallel as DDP


def resume(model, path, gpu):
    loc = "cuda:{}".format(gpu)
    checkpoint = torch.load(path, map_location=loc)
    model.load_state_dict(checkpoint["state_dict"])
    return DDP(model.cuda(gpu), device_ids=[gpu])
