import torch

from data import val_loader
from model import Classifier


def predict_proba(model, images):
    logits = model(images.cuda())  # expect: GPU103
    return logits.softmax(dim=-1)


def evaluate(model, loader):
    model.eval()
    hits = 0
    for images, labels in loader:
        probs = predict_proba(model, images)
        hits += (probs.argmax(-1).cpu() == labels).sum().item()
    return hits / len(loader.dataset)


model = Classifier().cuda()
print("accuracy", evaluate(model, val_loader))
