# verify: rule GPU201
# verify: case training-loop
# verify: role bad
# verify: title torch.cuda.empty_cache() after every training step
# verify: effect slowdown
# verify: metric step-time
# verify: steps 60
# verify: steady 10
# verify: expect ratio >= 1.05
# verify: expect peak ratio <= 1.05
"""empty_cache() every iteration hands the allocator's cached blocks back to
the driver, so the next step allocates them again with cudaMalloc: the steps
get slower while the peak stays where it was (the allocator already frees
its cache and retries when an allocation fails)."""
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
    torch.cuda.empty_cache()  # the pitfall (a no-op on a CPU dry run)
    return {"loss": loss.item()}


h.run(step, config={"model": "resnet18", "batch": batch, "image": 224})
