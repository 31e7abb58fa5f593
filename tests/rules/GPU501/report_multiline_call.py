import torch
from torch.nn.parallel import DistributedDataParallel


def load_pretrained(model, cfg):
    state = torch.load(  # pedantic: GPU501
        cfg.pretrained_path,
        weights_only=False,
    )
    model.load_state_dict(state["state_dict"], strict=False)
    return DistributedDataParallel(model.cuda())
