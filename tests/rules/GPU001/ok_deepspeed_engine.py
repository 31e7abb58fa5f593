import argparse

import deepspeed
import torch.nn.functional as F

from data import build_dataset
from model import GPT

parser = argparse.ArgumentParser()
parser = deepspeed.add_config_arguments(parser)
args = parser.parse_args()

model = GPT(n_layer=24, n_embd=2048)
model_engine, optimizer, train_loader, _ = deepspeed.initialize(
    args=args, model=model, model_parameters=model.parameters(), training_data=build_dataset()
)

for step, (tokens, targets) in enumerate(train_loader):
    tokens = tokens.to(model_engine.local_rank)
    targets = targets.to(model_engine.local_rank)
    logits = model_engine(tokens)
    loss = F.cross_entropy(logits.flatten(0, 1), targets.flatten())
    model_engine.backward(loss)
    model_engine.step()
    if step % 10 == 0 and model_engine.local_rank == 0:
        print(step, loss.item())
