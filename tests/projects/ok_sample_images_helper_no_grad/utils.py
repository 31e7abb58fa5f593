# sample_images() is decorated @torch.no_grad(): the periodic sampling forward records no graph.
import torch
from torchvision.utils import save_image


@torch.no_grad()
def sample_images(generator, z, path):
    generator.eval()
    imgs = generator(z)
    save_image(imgs * 0.5 + 0.5, path, nrow=8)
    generator.train()
