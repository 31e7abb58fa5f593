# Relights every image of a folder under a few lights with the trained
# network in eval mode, under no_grad: no graph is recorded.
import sys

import torch
from torchvision.io import read_image
from torchvision.utils import save_image

from relight.model import RelightNet

LIGHTS = [(1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0)]

if __name__ == "__main__":
    net = RelightNet().cuda()
    net.load_state_dict(torch.load(sys.argv[1], map_location="cuda"))
    net.eval()
    with torch.no_grad():
        for path in sys.argv[2:]:
            image = read_image(path).float().div(255).unsqueeze(0).cuda()
            features = net.encode(image)
            for k, light in enumerate(LIGHTS):
                light = torch.tensor([light], device="cuda")
                relit = net.shade(features, light)
                save_image(relit.cpu(), f"{path}.light{k}.png")
