import argparse

import torch

parser = argparse.ArgumentParser()
parser.add_argument("--local_rank", type=int, default=0)
parser.add_argument("--pretrained", type=str)
args = parser.parse_args()

torch.distributed.init_process_group(backend="nccl")
torch.cuda.set_device(args.local_rank)
model = torch.hub.load("pytorch/vision", "resnet50").cuda()
state = torch.load(args.pretrained)  # pedantic: GPU501
model.load_state_dict(state, strict=False)
