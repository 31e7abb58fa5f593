import gc

import torch
import torch.nn as nn

from data import train_loader
from model import build_model

model = build_model().cuda()
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.AdamW(model.parameters(), lr=3e-4)

for epoch in range(50):
    model.train()
    for batch_idx, (inputs, targets) in enumerate(train_loader):
        optimizer.zero_grad()
        outputs = model(inputs.cuda())
        loss = criterion(outputs, targets.cuda())
        loss.backward()
        optimizer.step()
        del outputs, loss
        gc.collect()
        torch.cuda.empty_cache()  # expect: GPU201
