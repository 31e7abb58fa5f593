import torch
from torch.utils.data import DataLoader
from transformers import AutoModelForSequenceClassification, AutoTokenizer, DataCollatorWithPadding

device = "cuda"
tokenizer = AutoTokenizer.from_pretrained("bert-base-uncased")
model = AutoModelForSequenceClassification.from_pretrained("bert-base-uncased", num_labels=2)
model.to(device)
optimizer = torch.optim.AdamW(model.parameters(), lr=2e-5)
train_dataloader = DataLoader(tokenized["train"], batch_size=16, collate_fn=DataCollatorWithPadding(tokenizer))

model.train()
for epoch in range(3):
    for batch in train_dataloader:
        batch["input_ids"].to(device)  # expect: GPU003
        batch["attention_mask"].to(device)  # expect: GPU003
        outputs = model(input_ids=batch["input_ids"], attention_mask=batch["attention_mask"], labels=batch["labels"])
        outputs.loss.backward()
        optimizer.step()
        optimizer.zero_grad()
