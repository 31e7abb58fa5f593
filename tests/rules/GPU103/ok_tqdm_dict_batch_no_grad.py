import torch
from tqdm import tqdm
from transformers import AutoModelForSequenceClassification

from data import eval_dataloader

model = AutoModelForSequenceClassification.from_pretrained("out/checkpoint-best").to("cuda")
model.eval()

correct = 0
for batch in tqdm(eval_dataloader):
    batch = {k: v.to("cuda") for k, v in batch.items()}
    with torch.no_grad():
        outputs = model(**batch)
    correct += (outputs.logits.argmax(-1) == batch["labels"]).sum().item()
print(correct / len(eval_dataloader.dataset))
