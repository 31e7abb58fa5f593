import torch

from model import GPT
from data import batches


def train(model, optimizer, device, steps):
    model.train()
    for step, tokens in zip(range(steps), batches()):
        tokens = tokens.to(device)
        positions = torch.arange(tokens.size(1)).to(device)
        logits = model(tokens[:, :-1], positions[:-1])
        loss = torch.nn.functional.cross_entropy(logits.flatten(0, 1), tokens[:, 1:].flatten())
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


if __name__ == "__main__":
    dev = torch.device("cuda:0")
    net = GPT().to(dev)
    train(net, torch.optim.AdamW(net.parameters(), lr=3e-4), dev, 10000)
