"""The fixed twin of finetune_amp.py: the loss history keeps numbers,
no empty_cache(), and evaluation under torch.no_grad()."""
import argparse
import sys

import torch
import torch.nn as nn
import torch.nn.functional as F

parser = argparse.ArgumentParser()
parser.add_argument("--epochs", type=int, default=3)
parser.add_argument("--accumulate", type=int, default=4)
parser.add_argument("--lr", type=float, default=3e-5)
args = parser.parse_args()

device = "cuda" if torch.cuda.is_available() else "cpu"
small = device == "cpu"
half = torch.float16 if device == "cuda" else torch.bfloat16  # CPU autocast wants bfloat16
vocab, width, layers, length = 8000, 64 if small else 512, 2 if small else 6, 32 if small else 256
micro_batch = 4 if small else 32
torch.manual_seed(0)


class Encoder(nn.Module):
    """Token and position embeddings, a transformer encoder, a pooled head."""

    def __init__(self, classes):
        super().__init__()
        self.tokens = nn.Embedding(vocab, width)
        self.positions = nn.Parameter(torch.zeros(1, length, width))
        block = nn.TransformerEncoderLayer(width, 8, 4 * width, dropout=0.1, batch_first=True)
        self.encoder = nn.TransformerEncoder(block, layers)
        self.norm = nn.LayerNorm(width)
        self.head = nn.Linear(width, classes)

    def forward(self, tokens):
        hidden = self.encoder(self.tokens(tokens) + self.positions)
        return self.head(self.norm(hidden.mean(dim=1)))


def synthetic_split(count, classes=4, seed=0):
    """Sequences whose class is the most frequent of four marker tokens."""
    generator = torch.Generator().manual_seed(seed)
    tokens = torch.randint(4, vocab, (count, length), generator=generator)
    labels = torch.randint(0, classes, (count,), generator=generator)
    marks = torch.rand(count, length, generator=generator) < 0.2
    tokens[marks] = labels.unsqueeze(1).expand(-1, length)[marks]
    return tokens, labels


def batches(tokens, labels, size):
    for start in range(0, len(tokens) - size + 1, size):
        yield tokens[start:start + size].to(device), labels[start:start + size].to(device)


@torch.no_grad()
def evaluate(model, tokens, labels):
    model.eval()
    correct = 0
    for inputs, targets in batches(tokens, labels, micro_batch):
        with torch.autocast(device, dtype=half, enabled=device == "cuda"):
            logits = model(inputs)
        correct += (logits.argmax(dim=1) == targets).sum().item()
    model.train()
    return correct / len(tokens)


model = Encoder(classes=4).to(device)
with torch.no_grad():  # stands in for loading pretrained weights
    model.tokens.weight.normal_(0, 0.02)
optimizer = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=0.01)
scaler = torch.cuda.amp.GradScaler(enabled=device == "cuda")
train_tokens, train_labels = synthetic_split(micro_batch * args.accumulate * 60)
val_tokens, val_labels = synthetic_split(micro_batch * 20, seed=1)

losses = []
for epoch in range(args.epochs):
    model.train()
    optimizer.zero_grad()
    for i, (inputs, targets) in enumerate(batches(train_tokens, train_labels, micro_batch)):
        with torch.autocast(device, dtype=half, enabled=device == "cuda"):
            loss = F.cross_entropy(model(inputs), targets) / args.accumulate
        scaler.scale(loss).backward()
        losses.append(loss.item())
        if (i + 1) % args.accumulate == 0:
            scaler.unscale_(optimizer)
            nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            scaler.step(optimizer)
            scaler.update()
            optimizer.zero_grad()
    accuracy = evaluate(model, val_tokens, val_labels)
    print("epoch %d loss %.4f accuracy %.3f" % (epoch, sum(losses[-20:]) / 20, accuracy), file=sys.stderr)
