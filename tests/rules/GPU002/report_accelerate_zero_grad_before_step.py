import torch
from accelerate import Accelerator
from transformers import AutoModelForTokenClassification

from data import train_dataloader

accelerator = Accelerator()
model = AutoModelForTokenClassification.from_pretrained("bert-base-cased", num_labels=9)
optimizer = torch.optim.AdamW(model.parameters(), lr=3e-5)
model, optimizer, train_dataloader = accelerator.prepare(model, optimizer, train_dataloader)

for epoch in range(3):
    model.train()
    for step, batch in enumerate(train_dataloader):
        outputs = model(**batch)
        accelerator.backward(outputs.loss)
        optimizer.zero_grad()  # expect: GPU002
        optimizer.step()
        if step % 100 == 0:
            accelerator.print(f"epoch {epoch} step {step}: {outputs.loss.item():.4f}")
