# ignite's Parallel runs `training` once in every process it starts (one
# per GPU with the nccl backend); each one restores the model and the
# optimizer from the checkpoint without map_location.
import argparse

import ignite.distributed as idist
import torch
import torch.nn.functional as F
from ignite.engine import Engine
from ignite.handlers import Checkpoint, DiskSaver
from torchvision.models import resnet50


def training(local_rank, args):
    model = idist.auto_model(resnet50())
    optimizer = idist.auto_optim(torch.optim.SGD(model.parameters(), lr=0.1))

    def step(engine, batch):
        x, y = batch[0].to(idist.device()), batch[1].to(idist.device())
        optimizer.zero_grad()
        loss = F.cross_entropy(model(x), y)
        loss.backward()
        optimizer.step()
        return loss.item()

    trainer = Engine(step)
    objects = {"model": model, "optimizer": optimizer, "trainer": trainer}
    trainer.add_event_handler("epoch_completed", Checkpoint(objects, DiskSaver(args.output, require_empty=False)))
    if args.resume:
        state = torch.load(args.resume)  # expect: GPU501
        Checkpoint.load_objects(to_load=objects, checkpoint=state)
    trainer.run(idist.auto_dataloader(make_dataset(), batch_size=256), max_epochs=90)


def make_dataset():
    return [(torch.randn(3, 224, 224), i % 1000) for i in range(4096)]


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--output", default="runs")
    parser.add_argument("--resume", default=None)
    args = parser.parse_args()
    with idist.Parallel(backend="nccl", nproc_per_node=torch.cuda.device_count()) as parallel:
        parallel.run(training, args)
