import torch
import torch.nn as nn
from torch.utils.data import DataLoader

from data import TextDataset
from model import Classifier

model = Classifier(vocab_size=30000, num_classes=4).cuda()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
criterion = nn.CrossEntropyLoss()
loader = DataLoader(TextDataset("train.jsonl"), batch_size=64, shuffle=True)


def train_step(tokens, labels):
    logits = model(tokens.cuda())
    loss = criterion(logits, labels.cuda())
    loss.backward()  # expect: GPU001
    optimizer.step()
    return loss.item()


for epoch in range(5):
    total = 0.0
    for tokens, labels in loader:
        total += train_step(tokens, labels)
    print(f"epoch {epoch} loss {total / len(loader):.3f}")
