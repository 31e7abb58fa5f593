"""An input optimized over many steps (a style-transfer image): the leaf
and its optimizer are built once, the loop never clears the gradient."""
import torch


def stylize(features, content, image, steps):
    image = image.clone().requires_grad_(True)
    opt = torch.optim.Adam([image], lr=0.01)
    for step in range(steps):
        loss = (features(image) - content).pow(2).mean()
        loss.backward()  # expect: GPU001
        opt.step()
    return image
