# A loaded model whose loop calls a step of an object the file does not show: it may update the model.
import torch

from engine import make_trainer

model = torch.load("model.pt")
trainer = make_trainer(model)
for batch in trainer.batches():
    out = model(batch)
    trainer.step(out)
