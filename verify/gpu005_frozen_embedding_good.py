# verify: rule GPU005
# verify: case frozen-embedding
# verify: role good
# verify: title checkpoint(block, embedding(ids), use_reentrant=False)
"""The fix for gpu005_frozen_embedding_bad.py: the non-reentrant
checkpoint records the block's operations like a plain forward, so its
parameters get their gradients whether or not the input requires grad."""
import torch
import torch.nn.functional as F
from torch import nn
from torch.utils.checkpoint import checkpoint

from harness import Harness, flat_parameters, grad_norm
from models import PreNormBlock

VOCAB, DIM, SEQ, CLASSES = 8192, 512, 128, 16
h = Harness(default_steps=30)
batch = h.fit(64, 8 * SEQ * 4 * DIM * 4, dry=4)
embedding = nn.Embedding.from_pretrained(torch.randn(VOCAB, DIM)).to(h.device)
block = PreNormBlock(DIM).to(h.device)
head = nn.Linear(DIM, CLASSES).to(h.device)
optimizer = torch.optim.SGD(list(block.parameters()) + list(head.parameters()), lr=0.05)


def step(k):
    before, head_before = flat_parameters(block), flat_parameters(head)
    ids = torch.randint(0, VOCAB, (batch, SEQ), device=h.device)
    labels = torch.randint(0, CLASSES, (batch,), device=h.device)
    optimizer.zero_grad(set_to_none=True)
    hidden = checkpoint(block, embedding(ids), use_reentrant=False)
    loss = F.cross_entropy(head(hidden.mean(1)), labels)
    loss.backward()
    norm = grad_norm(block)
    optimizer.step()
    change = float((flat_parameters(block) - before).norm())
    head_change = float((flat_parameters(head) - head_before).norm())
    return {"loss": loss.item(), "grad_norm": norm, "param_change": change, "head_change": head_change}


h.run(step, config={"vocab": VOCAB, "dim": DIM, "seq": SEQ, "batch": batch, "lr": 0.05, "use_reentrant": False})
