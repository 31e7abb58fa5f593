# verify: rule GPU005
# verify: case frozen-embedding
# verify: role bad
# verify: title checkpoint(block, frozen_embedding(ids), use_reentrant=True); measured: the block's parameters
# verify: effect wrong-gradients
# verify: metric param-change
# verify: steps 30
# verify: steady 5
# verify: expect good > 0
# verify: expect ratio <= 0.01
"""Reentrant activation checkpointing of a block whose only input comes
from a frozen embedding: the input does not require grad, so the
reentrant checkpoint's output does not either (PyTorch warns "None of the
inputs have requires_grad=True"), and backward never reaches the block.
Its parameters get no gradient and never move; the head after it trains,
so the loss still falls and nothing fails.

`param_change` is the norm of what each step changed in the block's
parameters (the metric), `grad_norm` the norm of the block's gradients,
`head_change` what the step changed in the head's."""
import torch
import torch.nn.functional as F
from torch import nn
from torch.utils.checkpoint import checkpoint

from harness import Harness, flat_parameters, grad_norm
from models import PreNormBlock

VOCAB, DIM, SEQ, CLASSES = 8192, 512, 128, 16
h = Harness(default_steps=30)
batch = h.fit(64, 8 * SEQ * 4 * DIM * 4, dry=4)  # a sample's activations, with room to spare
embedding = nn.Embedding.from_pretrained(torch.randn(VOCAB, DIM)).to(h.device)  # pretrained vectors, frozen (freeze=True)
block = PreNormBlock(DIM).to(h.device)
head = nn.Linear(DIM, CLASSES).to(h.device)
optimizer = torch.optim.SGD(list(block.parameters()) + list(head.parameters()), lr=0.05)


def step(k):
    before, head_before = flat_parameters(block), flat_parameters(head)
    ids = torch.randint(0, VOCAB, (batch, SEQ), device=h.device)  # a fresh batch, as from a loader
    labels = torch.randint(0, CLASSES, (batch,), device=h.device)
    optimizer.zero_grad(set_to_none=True)
    hidden = checkpoint(block, embedding(ids), use_reentrant=True)  # the pitfall: no input requires grad
    loss = F.cross_entropy(head(hidden.mean(1)), labels)
    loss.backward()
    norm = grad_norm(block)
    optimizer.step()
    change = float((flat_parameters(block) - before).norm())
    head_change = float((flat_parameters(head) - head_before).norm())
    return {"loss": loss.item(), "grad_norm": norm, "param_change": change, "head_change": head_change}


h.run(step, config={"vocab": VOCAB, "dim": DIM, "seq": SEQ, "batch": batch, "lr": 0.05, "use_reentrant": True})
