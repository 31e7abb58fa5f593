import torch
from tqdm import tqdm


def predict(model, test_loader, device):
    model.eval()
    predictions = []
    progress = tqdm(test_loader, total=len(test_loader), desc="predict")
    for batch in progress:
        for key, value in batch.items():
            batch[key] = value.to(device)
        logits, _ = model(**batch)  # expect: GPU103
        predictions.append(logits)  # expect: GPU101
    return torch.cat(predictions).argmax(-1)
