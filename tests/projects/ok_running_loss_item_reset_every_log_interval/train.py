# The running loss is reset every log_interval steps and only ever sums Python floats.
import time

import torch
import torch.nn.functional as F

from data import imdb_loader
from model import SeqClassifier

log_interval = 50
loader, vocab = imdb_loader(batch_size=32)
model = SeqClassifier(len(vocab)).cuda()
optimizer = torch.optim.AdamW(model.parameters(), lr=5e-4)


def train(epoch):
    model.train()
    total_loss = 0
    start = time.time()
    for i, (tokens, mask, labels) in enumerate(loader, 1):
        tokens, mask, labels = tokens.cuda(), mask.cuda(), labels.cuda()
        optimizer.zero_grad()
        loss = F.cross_entropy(model(tokens, mask), labels)
        loss.backward()
        optimizer.step()
        total_loss += loss.item()
        if i % log_interval == 0:
            elapsed = (time.time() - start) * 1000 / log_interval
            print(f"| epoch {epoch} | {i}/{len(loader)} | {elapsed:.1f} ms/batch | loss {total_loss / log_interval:.4f}")
            total_loss = 0
            start = time.time()


for epoch in range(1, 11):
    train(epoch)
