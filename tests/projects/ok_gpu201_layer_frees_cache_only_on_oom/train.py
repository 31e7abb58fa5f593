import argparse
import importlib
import sys

import torch
import torch.nn.functional as F

from data import make_loader
from layers import free_cached_blocks

parser = argparse.ArgumentParser()
parser.add_argument("--model", default="pointseg")
args = parser.parse_args()
sys.path.append("models")
module = importlib.import_module(args.model)
model = module.get_model(classes=40).cuda()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
for epoch in range(100):
    model.train()
    for points, labels in make_loader("train"):
        optimizer.zero_grad()
        loss = F.cross_entropy(model(points.cuda()), labels.cuda())
        loss.backward()
        optimizer.step()
    free_cached_blocks()
