# A generator forward whose result nothing uses: the graph is recorded for nothing.
import torch

for real, _ in loader:
    optimizer_g.zero_grad()
    z = torch.randn(real.size(0), 100, device="cuda")
    samples = generator(z)  # pedantic: GPU103
    fake = generator(torch.randn(real.size(0), 100, device="cuda"))
    g_loss = -discriminator(fake).mean()
    g_loss.backward()
    optimizer_g.step()
