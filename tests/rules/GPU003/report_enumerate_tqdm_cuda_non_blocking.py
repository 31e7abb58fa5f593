import argparse

import torch
import torch.nn.functional as F
from tqdm import tqdm

from data import build_loaders
from models import resnet50


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=90)
    args = parser.parse_args()

    train_loader, _ = build_loaders(args)
    model = resnet50(num_classes=1000).cuda()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9, weight_decay=1e-4)

    for epoch in range(args.epochs):
        model.train()
        for i, (images, target) in enumerate(tqdm(train_loader)):
            images.cuda(non_blocking=True)  # expect: GPU003
            target = target.cuda(non_blocking=True)
            output = model(images)
            loss = F.cross_entropy(output, target)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            if i % 100 == 0:
                print(epoch, i, loss.item())


if __name__ == "__main__":
    main()
