import torch
from transformers import AutoModelForSequenceClassification

from data import eval_dataloader

model = AutoModelForSequenceClassification.from_pretrained("out/checkpoint-best").to("cuda")
model.eval()

correct = 0
for batch in eval_dataloader:
    batch = {k: v.to("cuda") for k, v in batch.items()}
    outputs = model(**batch)  # expect: GPU103
    predictions = outputs.logits.argmax(dim=-1)
    correct += (predictions == batch["labels"]).sum().item()
print("accuracy", correct / len(eval_dataloader.dataset))
