import os

import torch

local_rank = int(os.getenv("LOCAL_RANK", -1))


def load_encoder(encoder, path):
    weights = torch.load(path)["encoder"]  # pedantic: GPU501
    encoder.load_state_dict(weights)
    return encoder.cuda(local_rank)
