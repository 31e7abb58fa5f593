import torch

from data import build_loader
from engine.trainer import Trainer
from models import build_detector

model = build_detector("retinanet")
trainer = Trainer(model, torch.optim.SGD(model.parameters(), lr=0.01))
for step, (images, targets) in enumerate(build_loader("train")):
    trainer.train_step(images, targets)
    if step % 50 == 0:
        trainer.log(step)
