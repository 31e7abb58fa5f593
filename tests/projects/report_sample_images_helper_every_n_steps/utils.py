# sample_images() has no loop of its own, but the training loop calls it every 100 steps: an eval-mode forward with grad on.
from torchvision.utils import save_image


def sample_images(generator, z, path):
    generator.eval()
    imgs = generator(z)  # expect: GPU103
    save_image(imgs * 0.5 + 0.5, path, nrow=8)
    generator.train()
