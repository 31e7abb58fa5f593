"""Extract penultimate features of a trained classifier for retrieval."""
import numpy as np
import torch

from models import load_classifier

features = []


def keep(module, inputs, output):
    features.append(output)


@torch.no_grad()
def main(loader, path):
    model = load_classifier(path).cuda().eval()
    model.fc.register_forward_hook(keep)
    for images, _ in loader:
        model(images.cuda())
    np.save("features.npy", torch.cat(features).cpu().numpy())
