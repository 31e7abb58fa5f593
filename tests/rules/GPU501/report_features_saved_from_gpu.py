"""Features saved from the GPU and loaded by every rank land on GPU 0, but
the code does not follow the loaded value into a state dict: reported
with --pedantic only."""
import os

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel

from gpu_probe_demo_model import build_gpu_probe_demo_backbone, build_gpu_probe_demo_loader


@torch.no_grad()
def extract_features(backbone, loader, path):
    features = [backbone(images.cuda()) for images, _ in loader]
    torch.save(torch.cat(features), path)


def main(path="features.pt"):
    dist.init_process_group("nccl")
    local_rank = int(os.environ["LOCAL_RANK"])
    torch.cuda.set_device(local_rank)
    backbone = build_gpu_probe_demo_backbone().cuda().eval()
    if not os.path.exists(path):
        extract_features(backbone, build_gpu_probe_demo_loader(), path)
    features = torch.load(path)  # pedantic: GPU501
    probe = DistributedDataParallel(torch.nn.Linear(features.shape[1], 10).cuda(), device_ids=[local_rank])
    return probe(features)


if __name__ == "__main__":
    main()
