# verify: rule GPU302
# verify: case mlp-noise
# verify: role bad
# verify: title torch.randn(256, 2048).to(device) noise every iteration
# verify: effect slowdown
# verify: metric step-time
# verify: steps 12
# verify: steady 2
# verify: expect ratio >= 1.5
"""A 4x2048 MLP (batch 256, SGD) trained on inputs with fresh Gaussian noise (256x2048) each iteration; one harness step runs 30 training iterations. The bad loop builds the tensor on the host and moves it; the good one builds it on the device."""
import torch
import torch.nn.functional as F

from harness import Harness, mlp

h = Harness(default_steps=12)
ITERATIONS = 30
model = mlp(2048, 4).to(h.device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
x = torch.randn(256, 2048, device=h.device)
y = torch.randn(256, 2048, device=h.device)


def step(k):
    running = torch.zeros((), device=h.device)
    for _ in range(ITERATIONS):
        optimizer.zero_grad(set_to_none=True)
        noise = torch.randn(256, 2048).to(h.device)  # the pitfall: drawn on the host, then copied
        loss = F.mse_loss(model(x + 0.1 * noise), y)
        loss.backward()
        optimizer.step()
        running += loss.detach()
    return {"loss": running.item() / ITERATIONS}


h.run(step, config={"case": "mlp_noise", "iterations": ITERATIONS})
