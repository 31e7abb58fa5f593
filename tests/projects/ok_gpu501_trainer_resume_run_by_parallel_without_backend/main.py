import argparse

import ignite.distributed as idist
import torch
import torch.nn.functional as F
from torchvision.models import resnet18

import engines


def training(local_rank, args):
    device = idist.device()
    model = idist.auto_model(resnet18(num_classes=10))
    optimizer = idist.auto_optim(torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9))
    scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=30)

    def step(engine, batch):
        model.train()
        x, y = batch[0].to(device), batch[1].to(device)
        optimizer.zero_grad()
        loss = F.cross_entropy(model(x), y)
        loss.backward()
        optimizer.step()
        return loss.item()

    trainer = engines.build_trainer(step, model, optimizer, scheduler, resume_from=args.resume)
    trainer.run(idist.auto_dataloader(make_dataset(), batch_size=128, shuffle=True), max_epochs=90)


def make_dataset():
    return [(torch.randn(3, 32, 32), i % 10) for i in range(1024)]


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--resume", default=None)
    args = parser.parse_args()
    with idist.Parallel() as parallel:  # one process: no backend
        parallel.run(training, args)
