import argparse

import torch
from torch import nn

from algorithms.consistency import ConsistencyTraining


def build_net():
    return nn.Sequential(nn.Flatten(), nn.Linear(3 * 32 * 32, 256), nn.ReLU(), nn.Linear(256, 10))


def main():
    """One process drives every GPU of the machine through DataParallel:
    the checkpoint is loaded once."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--resume", default=None)
    args = parser.parse_args()
    algorithm = ConsistencyTraining(build_net().cuda())
    algorithm.model = nn.DataParallel(algorithm.model)
    if args.resume:
        algorithm.load_model(args.resume)
    labelled = [(torch.randn(16, 3, 32, 32), torch.randint(0, 10, (16,)))] * 10
    unlabelled = [(torch.randn(48, 3, 32, 32), torch.randn(48, 3, 32, 32))] * 10
    algorithm.train_loop(labelled, unlabelled, 0)
    algorithm.save_model("latest.pth")


if __name__ == "__main__":
    main()
