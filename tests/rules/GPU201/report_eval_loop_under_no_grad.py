import torch

from data import test_loader
from model import Segmenter

model = Segmenter().cuda()
model.load_state_dict(torch.load("seg.pt", map_location="cuda"))
model.eval()

predictions = []
with torch.no_grad():
    for images in test_loader:
        logits = model(images.cuda())
        predictions.append(logits.argmax(1).cpu())
        del logits
        torch.cuda.empty_cache()  # expect: GPU201
torch.save(torch.cat(predictions), "preds.pt")
