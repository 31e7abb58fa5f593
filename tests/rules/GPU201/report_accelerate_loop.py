import torch
from accelerate import Accelerator
from transformers import AutoModelForCausalLM

from data import train_dataloader

accelerator = Accelerator(mixed_precision="bf16")
model = AutoModelForCausalLM.from_pretrained("EleutherAI/pythia-410m")
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-5)
model, optimizer, train_dataloader = accelerator.prepare(model, optimizer, train_dataloader)

model.train()
for step, batch in enumerate(train_dataloader):
    outputs = model(**batch)
    accelerator.backward(outputs.loss)
    optimizer.step()
    optimizer.zero_grad()
    torch.cuda.empty_cache()  # expect: GPU201
    if step % 50 == 0:
        accelerator.print(step, outputs.loss.item())
