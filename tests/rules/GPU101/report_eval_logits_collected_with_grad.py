import torch
import torch.nn.functional as F

from data import val_loader
from model import TextClassifier

model = TextClassifier.from_checkpoint("best.ckpt").cuda()
model.eval()
all_logits, all_labels = [], []

for batch in val_loader:
    input_ids = batch["input_ids"].cuda()
    mask = batch["attention_mask"].cuda()
    logits = model(input_ids, attention_mask=mask)  # expect: GPU103
    all_logits.append(logits)  # expect: GPU101
    all_labels.append(batch["labels"])

probs = F.softmax(torch.cat(all_logits), dim=-1)
print("mean confidence", probs.max(dim=-1).values.mean().item())
