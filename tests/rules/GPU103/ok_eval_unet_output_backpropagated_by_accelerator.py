# Textual inversion: only the new token embedding trains. The unet is
# frozen and kept in eval mode, but its prediction's loss is
# backpropagated through accelerator.backward into the text encoder.
import torch
import torch.nn.functional as F
from accelerate import Accelerator
from diffusers import AutoencoderKL, DDPMScheduler, UNet2DConditionModel
from transformers import CLIPTextModel

from data import concept_loader

accelerator = Accelerator(gradient_accumulation_steps=4)
text_encoder = CLIPTextModel.from_pretrained("sd", subfolder="text_encoder")
vae = AutoencoderKL.from_pretrained("sd", subfolder="vae")
unet = UNet2DConditionModel.from_pretrained("sd", subfolder="unet")
noise_scheduler = DDPMScheduler.from_pretrained("sd", subfolder="scheduler")
vae.requires_grad_(False)
unet.requires_grad_(False)
text_encoder.text_model.encoder.requires_grad_(False)
optimizer = torch.optim.AdamW(text_encoder.get_input_embeddings().parameters(), lr=5e-4)
text_encoder, optimizer, loader = accelerator.prepare(text_encoder, optimizer, concept_loader())
vae.to(accelerator.device)
unet.to(accelerator.device)
unet.eval()
vae.eval()

for epoch in range(100):
    text_encoder.train()
    for batch in loader:
        with accelerator.accumulate(text_encoder):
            latents = vae.encode(batch["pixel_values"]).latent_dist.sample() * 0.18215
            noise = torch.randn_like(latents)
            steps = torch.randint(0, 1000, (latents.shape[0],), device=latents.device)
            noisy = noise_scheduler.add_noise(latents, noise, steps)
            hidden = text_encoder(batch["input_ids"])[0]
            pred = unet(noisy, steps, hidden).sample
            loss = F.mse_loss(pred.float(), noise.float())
            accelerator.backward(loss)
            optimizer.step()
            optimizer.zero_grad()
