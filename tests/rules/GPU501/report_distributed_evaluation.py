import torch
import torch.distributed as dist

from data import build_val_loader
from model import build_model


@torch.no_grad()
def evaluate(checkpoint_path):
    dist.init_process_group("nccl")
    rank = dist.get_rank()
    torch.cuda.set_device(rank)
    model = build_model().cuda()
    model.load_state_dict(torch.load(checkpoint_path)["model"])  # pedantic: GPU501
    model.eval()
    correct = torch.zeros((), device="cuda")
    for x, y in build_val_loader(rank):
        correct += (model(x.cuda()).argmax(1) == y.cuda()).sum()
    dist.all_reduce(correct)
    return correct.item()
