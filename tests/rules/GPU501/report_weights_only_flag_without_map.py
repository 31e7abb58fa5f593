import torch
from torch.nn.parallel import DistributedDataParallel


def build(model, args):
    if args.init_from:
        model.load_state_dict(torch.load(args.init_from, weights_only=True))  # pedantic: GPU501
    model = model.cuda(args.gpu)
    return DistributedDataParallel(model, device_ids=[args.gpu])
