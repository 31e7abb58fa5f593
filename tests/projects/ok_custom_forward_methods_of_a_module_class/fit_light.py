# Fits the light of each photo through the frozen-mode network: eval mode
# keeps batch statistics fixed, and the outputs are backpropagated into the
# light estimate, so grad must be on.
import sys

import torch
import torch.nn.functional as F
from torchvision.io import read_image

from relight.model import RelightNet

if __name__ == "__main__":
    net = RelightNet().cuda()
    net.load_state_dict(torch.load(sys.argv[1], map_location="cuda"))
    net.eval()
    for path in sys.argv[2:]:
        image = read_image(path).float().div(255).unsqueeze(0).cuda()
        light = torch.zeros(1, 3, device="cuda", requires_grad=True)
        optimizer = torch.optim.Adam([light], lr=1e-2)
        for _ in range(100):
            features = net.encode(image)
            loss = F.mse_loss(net.shade(features, light), image)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(path, light.detach().cpu().tolist())
