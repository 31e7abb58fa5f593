import torch
from accelerate import Accelerator
from torch.utils.data import DataLoader
from transformers import AutoModelForSequenceClassification, get_linear_schedule_with_warmup

from data import load_tokenized

accelerator = Accelerator(mixed_precision="bf16")
train_ds = load_tokenized("train")
train_dataloader = DataLoader(train_ds, batch_size=32, shuffle=True)
model = AutoModelForSequenceClassification.from_pretrained("bert-base-uncased", num_labels=2)
optimizer = torch.optim.AdamW(model.parameters(), lr=2e-5)
lr_scheduler = get_linear_schedule_with_warmup(optimizer, 100, 3 * len(train_dataloader))

model, optimizer, train_dataloader, lr_scheduler = accelerator.prepare(
    model, optimizer, train_dataloader, lr_scheduler
)

for epoch in range(3):
    model.train()
    for batch in train_dataloader:
        outputs = model(**batch)
        loss = outputs.loss
        accelerator.backward(loss)  # expect: GPU001
        optimizer.step()
        lr_scheduler.step()
