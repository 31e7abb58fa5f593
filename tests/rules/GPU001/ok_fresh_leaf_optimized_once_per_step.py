"""Guidance during sampling: each denoising step makes the latents a fresh
leaf and builds an optimizer over it that steps once; no gradient is ever
summed across steps."""
import torch


def guided_sampling(unet, scheduler, latents, guidance_loss, scale):
    for t in scheduler.timesteps:
        x_in = latents.detach().clone()
        x_in.requires_grad = True
        opt = torch.optim.SGD([x_in], lr=scale)
        with torch.enable_grad():
            loss = guidance_loss(unet(x_in, t))
            loss.backward()
            opt.step()
        latents = scheduler.step(unet(x_in.detach(), t), t, latents).prev_sample
    return latents
