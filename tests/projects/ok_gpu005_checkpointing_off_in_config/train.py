"""One-shot tuning of the video UNet on a single clip."""
import argparse
from typing import Tuple

import torch
import torch.nn.functional as F
from omegaconf import OmegaConf

from video.models.unet import VideoUNet


def main(
    pretrained_path: str,
    clip_path: str,
    trainable_modules: Tuple[str] = ("attn1.to_q", "attn2.to_q", "attn_temp"),
    learning_rate: float = 3e-5,
    max_steps: int = 500,
    gradient_checkpointing: bool = True,
):
    unet = VideoUNet.from_pretrained_2d(pretrained_path).cuda()
    latents, context = torch.load(clip_path)

    unet.requires_grad_(False)
    for name, module in unet.named_modules():
        if name.endswith(tuple(trainable_modules)):
            for params in module.parameters():
                params.requires_grad = True

    if gradient_checkpointing:
        unet.enable_gradient_checkpointing()

    optimizer = torch.optim.AdamW([p for p in unet.parameters() if p.requires_grad], lr=learning_rate)
    unet.train()
    for step in range(max_steps):
        noise = torch.randn_like(latents)
        timesteps = torch.randint(0, 1000, (latents.shape[0],), device=latents.device)
        noisy = latents + noise * (timesteps[:, None, None, None, None] / 1000)
        loss = F.mse_loss(unet(noisy, timesteps, context), noise)
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--config", type=str, default="configs/clip.yaml")
    args = parser.parse_args()
    main(**OmegaConf.load(args.config))
