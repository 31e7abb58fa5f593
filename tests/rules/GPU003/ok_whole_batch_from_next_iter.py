import torch
from torch.utils.data import DataLoader
from transformers import AutoTokenizer, DataCollatorWithPadding

tokenizer = AutoTokenizer.from_pretrained("distilbert-base-uncased")
collator = DataCollatorWithPadding(tokenizer, return_tensors="pt")
eval_loader = DataLoader(eval_dataset, batch_size=32, collate_fn=collator)

batch = next(iter(eval_loader))
batch.to("cuda")
print({key: value.shape for key, value in batch.items()})
