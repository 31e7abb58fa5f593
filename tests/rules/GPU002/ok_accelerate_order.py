import torch
from accelerate import Accelerator
from transformers import AutoModelForSeq2SeqLM, get_scheduler

from data import train_dataloader

accelerator = Accelerator(mixed_precision="fp16")
model = AutoModelForSeq2SeqLM.from_pretrained("t5-small")
optimizer = torch.optim.AdamW(model.parameters(), lr=3e-4)
lr_scheduler = get_scheduler("linear", optimizer, num_warmup_steps=500, num_training_steps=20_000)
model, optimizer, train_dataloader, lr_scheduler = accelerator.prepare(
    model, optimizer, train_dataloader, lr_scheduler
)

for epoch in range(5):
    model.train()
    for batch in train_dataloader:
        outputs = model(**batch)
        accelerator.backward(outputs.loss)
        accelerator.clip_grad_norm_(model.parameters(), 1.0)
        optimizer.step()
        lr_scheduler.step()
        optimizer.zero_grad()
