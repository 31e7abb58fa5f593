import torch
from accelerate import Accelerator

accelerator = Accelerator()


def train(model, optimizer, dataloader):
    model, optimizer, dataloader = accelerator.prepare(model, optimizer, dataloader)
    model.train()
    for batch in dataloader:
        outputs = model(**batch)
        accelerator.backward(outputs.loss, retain_graph=True)  # expect: GPU104
        optimizer.step()
        optimizer.zero_grad()
