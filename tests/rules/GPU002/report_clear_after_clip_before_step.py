import torch
import torch.nn as nn
from torch.nn.utils import clip_grad_norm_

from data import loader
from model import Seq2SeqTransformer

model = Seq2SeqTransformer().cuda()
optimizer = torch.optim.Adam(model.parameters(), lr=5e-4, betas=(0.9, 0.98))
criterion = nn.CrossEntropyLoss(ignore_index=0)

for epoch in range(30):
    for src, tgt in loader:
        src, tgt = src.cuda(), tgt.cuda()
        logits = model(src, tgt[:, :-1])
        loss = criterion(logits.reshape(-1, logits.size(-1)), tgt[:, 1:].reshape(-1))
        loss.backward()
        grad_norm = clip_grad_norm_(model.parameters(), 1.0)
        optimizer.zero_grad()  # expect: GPU002
        optimizer.step()
