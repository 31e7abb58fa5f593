# An attack runs the eval-mode model with grad on because it needs input gradients (torch.autograd.grad).
import torch
import torch.nn as nn
import torch.nn.functional as F


def pgd_attack(model: nn.Module, images, labels, eps=8 / 255, alpha=2 / 255, steps=10):
    model.eval()
    adv = images.clone().detach()
    for _ in range(steps):
        adv.requires_grad_(True)
        loss = F.cross_entropy(model(adv), labels)
        grad = torch.autograd.grad(loss, adv)[0]
        adv = adv.detach() + alpha * grad.sign()
        adv = torch.min(torch.max(adv, images - eps), images + eps).clamp(0, 1)
    return adv
