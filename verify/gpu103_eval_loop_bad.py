# verify: rule GPU103
# verify: case eval-loop
# verify: role bad
# verify: title model.eval() forward passes with grad enabled
# verify: effect peak
# verify: metric peak
# verify: steps 8
# verify: steady 2
# verify: expect ratio >= 4
"""Evaluation with grad on: eval() changes how BatchNorm and Dropout behave,
not whether autograd records. Every layer saves its inputs for a backward
pass that never comes, so the forward pass peaks far higher than under
no_grad. The outputs are not kept: nothing grows between iterations."""
import torch

from harness import Harness
from models import resnet50

h = Harness(default_steps=8)
batch = h.fit(64, 100 << 20)  # about 82 MB a sample at the peak with grad on
model = resnet50().to(h.device).eval()
x = torch.randn(batch, 3, 224, 224, device=h.device)


def step(k):
    out = model(x)  # the pitfall: no torch.no_grad() around evaluation
    return {"top1": int(out.argmax(1)[0])}


h.run(step, config={"model": "resnet50", "batch": batch, "image": 224})
