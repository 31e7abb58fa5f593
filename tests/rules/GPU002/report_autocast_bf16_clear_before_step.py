import torch
import torch.nn.functional as F

from data import loader
from model import VisionTransformer

model = VisionTransformer(image_size=224, patch_size=16, num_classes=1000).cuda()
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3, weight_decay=0.05)
scheduler = torch.optim.lr_scheduler.CosineAnnealingLR(optimizer, T_max=300 * len(loader))

for epoch in range(300):
    for images, labels in loader:
        with torch.autocast("cuda", dtype=torch.bfloat16):
            logits = model(images.cuda(non_blocking=True))
            loss = F.cross_entropy(logits, labels.cuda(non_blocking=True), label_smoothing=0.1)
        loss.backward()
        optimizer.zero_grad()  # expect: GPU002
        optimizer.step()
        scheduler.step()
