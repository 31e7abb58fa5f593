# Entry point: builds the classifier and hands it to the Trainer.
import torch

from data import build_loaders
from model import TextClassifier
from trainer import Trainer

train_loader, val_loader, test_loader, vocab = build_loaders(batch_size=64)
model = TextClassifier(len(vocab)).cuda()
optimizer = torch.optim.AdamW(model.parameters(), lr=3e-3)
trainer = Trainer(model, optimizer)
trainer.fit(train_loader, val_loader, epochs=8)
print(f"test accuracy {trainer.evaluate(test_loader):.4f}")
