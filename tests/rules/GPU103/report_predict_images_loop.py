import sys

import torch
from PIL import Image
from torchvision import transforms

from model import build_model

preprocess = transforms.Compose([
    transforms.Resize(256), transforms.CenterCrop(224), transforms.ToTensor(),
    transforms.Normalize([0.485, 0.456, 0.406], [0.229, 0.224, 0.225]),
])
model = build_model("resnet50", num_classes=1000).cuda()
model.eval()

for path in sys.argv[1:]:
    batch = preprocess(Image.open(path).convert("RGB")).unsqueeze(0).cuda()
    probs = model(batch).softmax(dim=1)  # expect: GPU103
    score, idx = probs.max(dim=1)
    print(f"{path}: class {idx.item()} ({score.item():.2%})")
