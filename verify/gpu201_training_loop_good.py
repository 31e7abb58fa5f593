# verify: rule GPU201
# verify: case training-loop
# verify: role good
# verify: title the same loop without empty_cache()
"""The fix for gpu201_training_loop_bad.py: the allocator keeps its cache."""
import torch
import torch.nn.functional as F

from harness import Harness
from models import resnet18

h = Harness(default_steps=60)
batch = h.fit(64, 64 << 20)
model = resnet18().to(h.device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
x = torch.randn(batch, 3, 224, 224, device=h.device)
y = torch.randint(0, 1000, (batch,), device=h.device)


def step(k):
    optimizer.zero_grad()
    loss = F.cross_entropy(model(x), y)
    loss.backward()
    optimizer.step()
    return {"loss": loss.item()}


h.run(step, config={"model": "resnet18", "batch": batch, "image": 224})
