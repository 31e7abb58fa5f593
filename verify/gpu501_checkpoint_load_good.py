# verify: rule GPU501
# verify: case checkpoint-load
# verify: role good
# verify: title torch.load(path, map_location="cpu")
"""The fix for gpu501_checkpoint_load_bad.py: the state dict is loaded
into host memory and load_state_dict copies each tensor into the model's
parameters on the GPU, so the GPU never holds a second copy."""
import os
import shutil
import tempfile

import torch

from harness import Harness, mlp

WIDTH = 4096
LAYER = (WIDTH * WIDTH + WIDTH) * 4
h = Harness(default_steps=6)
depth = h.fit(8, 2 * LAYER, dry=2)
folder = tempfile.mkdtemp(prefix="gpulint-verify-")
path = os.path.join(folder, "checkpoint.pt")
torch.save(mlp(WIDTH, depth, device=h.device).state_dict(), path)


def step(k):
    model = mlp(WIDTH, depth, device=h.device)
    state = torch.load(path, map_location="cpu")
    model.load_state_dict(state)
    return {"loaded_on": str(next(iter(state.values())).device)}


try:
    h.run(step, config={"width": WIDTH, "depth": depth, "checkpoint_mb": depth * LAYER >> 20})
finally:
    shutil.rmtree(folder, ignore_errors=True)
