import numpy as np
import torch
import torch.nn as nn


class Classifier(nn.Module):
    def __init__(self, in_features, classes):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(in_features, 128), nn.ReLU(), nn.Linear(128, classes))

    def forward(self, x):
        return self.body(x)


model = Classifier(32, 4).cuda()
model.eval()
predictions = []
with torch.no_grad():
    for features, _ in test_loader:
        logits = model(features.cuda())
        logits.cpu()  # expect: GPU003
        predictions.append(logits.argmax(1).numpy())
np.save("predictions.npy", np.concatenate(predictions))
