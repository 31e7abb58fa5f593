# Relights every image of a folder under a few lights with the trained
# network in eval mode: each custom forward records a graph, grad is on.
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
    for path in sys.argv[2:]:
        image = read_image(path).float().div(255).unsqueeze(0).cuda()
        features = net.encode(image)  # expect: GPU103
        for k, light in enumerate(LIGHTS):
            light = torch.tensor([light], device="cuda")
            relit = net.shade(features, light)  # expect: GPU103
            save_image(relit.detach().cpu(), f"{path}.light{k}.png")
