"""Features the script extracted and moved to the CPU itself: the load puts
them on the host."""
import os

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel

from probe_demo_model import build_probe_demo_backbone, build_probe_demo_loader


@torch.no_grad()
def extract_features(backbone, loader, path):
    features = []
    for images, _ in loader:
        features.append(backbone(images.cuda()).cpu())
    torch.save(torch.cat(features), path)


def main(path="features.pt"):
    dist.init_process_group("nccl")
    local_rank = int(os.environ["LOCAL_RANK"])
    torch.cuda.set_device(local_rank)
    backbone = build_probe_demo_backbone().cuda().eval()
    if not os.path.exists(path):
        extract_features(backbone, build_probe_demo_loader(), path)
    features = torch.load(path)
    probe = DistributedDataParallel(torch.nn.Linear(features.shape[1], 10).cuda(), device_ids=[local_rank])
    return probe(features.cuda())


if __name__ == "__main__":
    main()
