import torch
from transformers import AutoModelForSeq2SeqLM

from data import train_dataloader

model = AutoModelForSeq2SeqLM.from_pretrained("t5-base").cuda()
optimizer = torch.optim.AdamW(model.parameters(), lr=3e-4)

for epoch in range(3):
    model.train()
    for batch in train_dataloader:
        batch = {k: v.cuda() for k, v in batch.items()}
        loss = model(**batch).loss
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        torch.cuda.empty_cache()  # expect: GPU201
