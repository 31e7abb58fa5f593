# Trains the translator with teacher forcing.
import torch
import torch.nn.functional as F

from translator.checkpoints import save_model
from translator.model import Translator


def train(loader, epochs=20, device="cuda"):
    net = Translator().to(device)
    optimizer = torch.optim.Adam(net.parameters(), lr=3e-4)
    for _ in range(epochs):
        for src, tgt in loader:
            src, tgt = src.to(device), tgt.to(device)
            logits = net(src, tgt[:, :-1])
            loss = F.cross_entropy(logits.flatten(0, 1), tgt[:, 1:].flatten())
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
    save_model(net, "translator.pt")
