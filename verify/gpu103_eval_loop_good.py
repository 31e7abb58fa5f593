# verify: rule GPU103
# verify: case eval-loop
# verify: role good
# verify: title the same forward passes under torch.no_grad()
"""The fix for gpu103_eval_loop_bad.py: under no_grad each activation is freed
as soon as the next layer has read it."""
import torch

from harness import Harness
from models import resnet50

h = Harness(default_steps=8)
batch = h.fit(64, 100 << 20)
model = resnet50().to(h.device).eval()
x = torch.randn(batch, 3, 224, 224, device=h.device)


def step(k):
    with torch.no_grad():
        out = model(x)
    return {"top1": int(out.argmax(1)[0])}


h.run(step, config={"model": "resnet50", "batch": batch, "image": 224})
