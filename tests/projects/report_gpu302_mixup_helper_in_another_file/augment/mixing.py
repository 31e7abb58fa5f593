import numpy as np
import torch


def mix_batch(x, y, alpha=0.4):
    """Blends each example with another one of the batch."""
    lam = float(np.random.beta(alpha, alpha)) if alpha > 0 else 1.0
    order = torch.randperm(x.size(0)).to(x.device)  # expect: GPU302
    return lam * x + (1 - lam) * x[order], y, y[order], lam
