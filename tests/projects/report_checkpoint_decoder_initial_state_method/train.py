# Trains the decoder on precomputed image features and saves it whole.
import torch
import torch.nn.functional as F

from models import CaptionDecoder


def train(loader, epochs=10):
    decoder = CaptionDecoder().cuda()
    optimizer = torch.optim.Adam(decoder.parameters(), lr=4e-4)
    for _ in range(epochs):
        for features, captions in loader:
            scores = decoder(features.cuda(), captions.cuda())
            loss = sum(F.cross_entropy(s, captions[:, t + 1].cuda()) for t, s in enumerate(scores[:-1]))
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
    torch.save({"decoder": decoder}, "checkpoint.pth")
