# verify: rule GPU501
# verify: case checkpoint-load
# verify: role bad
# verify: title model.load_state_dict(torch.load(path)) of a checkpoint saved from the GPU, no map_location
# verify: effect peak
# verify: metric peak
# verify: steps 6
# verify: expect ratio >= 1.5
"""Resuming from a checkpoint saved from the GPU: torch.load puts every
tensor back on the device it was saved from, so the whole state dict sits
on the GPU beside the model until load_state_dict has copied it. The
peak is the model plus a second copy of its weights (8 x 4096 layers:
512 MB each). In a job of one process per GPU, every process puts that
copy on the GPU the checkpoint was saved from.

Each step is one resume: build the model on the GPU, load the checkpoint
into it, drop both. The checkpoint is a temporary file, removed at exit."""
import os
import shutil
import tempfile

import torch

from harness import Harness, mlp

WIDTH = 4096
LAYER = (WIDTH * WIDTH + WIDTH) * 4  # bytes of one Linear's weight and bias
h = Harness(default_steps=6)
depth = h.fit(8, 2 * LAYER, dry=2)  # the model and the loaded copy
folder = tempfile.mkdtemp(prefix="gpulint-verify-")
path = os.path.join(folder, "checkpoint.pt")
torch.save(mlp(WIDTH, depth, device=h.device).state_dict(), path)  # saved from the GPU


def step(k):
    model = mlp(WIDTH, depth, device=h.device)
    state = torch.load(path)  # the pitfall: the tensors land on the device they were saved from
    model.load_state_dict(state)
    return {"loaded_on": str(next(iter(state.values())).device)}


try:
    h.run(step, config={"width": WIDTH, "depth": depth, "checkpoint_mb": depth * LAYER >> 20})
finally:
    shutil.rmtree(folder, ignore_errors=True)
