import torch
from accelerate import Accelerator
from transformers import AutoModelForSequenceClassification

from data import train_dataloader

accelerator = Accelerator(gradient_accumulation_steps=4)
model = AutoModelForSequenceClassification.from_pretrained("roberta-base", num_labels=3)
optimizer = torch.optim.AdamW(model.parameters(), lr=2e-5)
model, optimizer, train_dataloader = accelerator.prepare(model, optimizer, train_dataloader)

model.train()
for epoch in range(3):
    for batch in train_dataloader:
        with accelerator.accumulate(model):
            outputs = model(**batch)
            accelerator.backward(outputs.loss)
            optimizer.step()
            optimizer.zero_grad()
