import torch

from trainer.step import generator_step


def train(model, loader, epochs=5):
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-4)
    for epoch in range(epochs):
        for src, tgt in loader:
            print(generator_step(model, optimizer, src.cuda(), tgt.cuda()))
