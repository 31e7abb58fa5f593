import torch

from model import Classifier
from data import test_loader


def predict_all(model, device):
    model.eval()
    predictions = []
    with torch.no_grad():
        for batch in test_loader:
            inputs = batch["pixels"].to(device)
            scores = torch.empty(inputs.size(0), 1000).to(device)
            torch.softmax(model(inputs), dim=1, out=scores)
            predictions.append(scores.argmax(1).cpu())
    return torch.cat(predictions)


if __name__ == "__main__":
    clf = Classifier().cuda()
    preds = predict_all(clf, "cuda")
