"""Training on the CPU with Intel's extension: `.to(latents.device)` moves
nothing to a GPU."""
import intel_extension_for_pytorch as ipex
import torch


def train(unet, loader, optimizer, scheduler):
    unet, optimizer = ipex.optimize(unet, optimizer=optimizer)
    for latents, cond in loader:
        with torch.cpu.amp.autocast():
            noise = torch.randn(latents.shape).to(latents.device)
            t = torch.randint(0, 1000, (latents.shape[0],)).to(latents.device)
            loss = (unet(scheduler.add_noise(latents, noise, t), t, cond) - noise).pow(2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
