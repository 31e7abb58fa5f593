import torch

from data import test_loader
from model import load_model

model = load_model("checkpoint.pt").cuda()
model.eval()

outputs = []
targets = []
for images, labels in test_loader:
    outputs.append(model(images.cuda()))  # expect: GPU101, GPU103
    targets.append(labels)

logits = torch.cat(outputs)
accuracy = (logits.argmax(1).cpu() == torch.cat(targets)).float().mean().item()
print(f"test accuracy: {accuracy:.3f}")
