# Every process that ignite's Parallel starts restores the trainer's
# counters and the learning-rate schedule only: Python numbers, nothing
# that torch.load could put on another rank's GPU. The weights come from
# the model's own pretrained download.
import argparse

import ignite.distributed as idist
import torch
import torch.nn.functional as F
from ignite.engine import Engine
from ignite.handlers import Checkpoint
from torchvision.models import resnet50


def training(local_rank, args):
    model = idist.auto_model(resnet50(weights="IMAGENET1K_V2"))
    optimizer = idist.auto_optim(torch.optim.SGD(model.parameters(), lr=0.1))
    scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=30)

    def step(engine, batch):
        x, y = batch[0].to(idist.device()), batch[1].to(idist.device())
        optimizer.zero_grad()
        loss = F.cross_entropy(model(x), y)
        loss.backward()
        optimizer.step()
        return loss.item()

    trainer = Engine(step)
    progress = {"trainer": trainer, "lr_schedule": scheduler}
    if args.resume:
        state = torch.load(args.resume)
        Checkpoint.load_objects(to_load=progress, checkpoint=state)
    trainer.run(idist.auto_dataloader(make_dataset(), batch_size=256), max_epochs=90)


def make_dataset():
    return [(torch.randn(3, 224, 224), i % 1000) for i in range(4096)]


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--resume", default=None)
    args = parser.parse_args()
    with idist.Parallel(backend="nccl") as parallel:
        parallel.run(training, args)
