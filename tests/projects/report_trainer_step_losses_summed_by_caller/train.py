# The epoch loop sums the terms the trainer hands back: each sum keeps every step's graph until the epoch ends.
import torch

from nets import UNet
from step import SegTrainer


def run_epoch(loader, epoch):
    mask_total = 0
    edge_total = 0
    total = 0
    for step, (images, masks, edges) in enumerate(loader):
        terms = trainer.train_step(images.cuda(), masks.cuda(), edges.cuda())
        mask_loss, edge_loss, loss = terms
        mask_total += mask_loss  # expect: GPU101
        edge_total += edge_loss  # expect: GPU101
        total += loss  # expect: GPU101
    print(epoch, mask_total.item() / (step + 1), edge_total.item() / (step + 1), total.item() / (step + 1))


if __name__ == "__main__":
    net = UNet(classes=4).cuda()
    optimizer = torch.optim.Adam(net.parameters(), lr=3e-4)
    trainer = SegTrainer(net, optimizer)
    for epoch in range(40):
        run_epoch(train_loader, epoch)
