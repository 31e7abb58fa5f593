# Distributed autograd: gradients live in the context and DistributedOptimizer.step(ctx) applies them; there is nothing to zero_grad.
import os

import torch
import torch.distributed.autograd as dist_autograd
import torch.distributed.rpc as rpc
import torch.nn as nn
import torch.optim as optim
from torch.distributed.optim import DistributedOptimizer

from data import click_batches
from model import HybridRecommender


def run_trainer(rank, epochs=10):
    model = HybridRecommender(num_items=100_000, dim=64, ps_name="ps")
    opt = DistributedOptimizer(optim.Adagrad, model.parameter_rrefs(), lr=0.05)
    criterion = nn.CrossEntropyLoss()
    for epoch in range(epochs):
        losses = []
        for items, offsets, labels in click_batches(rank, batch_size=256):
            with dist_autograd.context() as ctx:
                logits = model(items, offsets)
                loss = criterion(logits, labels.cuda())
                dist_autograd.backward(ctx, [loss])
                opt.step(ctx)
            losses.append(loss.item())
        print(f"trainer {rank} epoch {epoch} loss {sum(losses) / len(losses):.4f}")


if __name__ == "__main__":
    rank = int(os.environ["RANK"])
    rpc.init_rpc(f"trainer{rank}", rank=rank, world_size=int(os.environ["WORLD_SIZE"]))
    run_trainer(rank)
    rpc.shutdown()
