"""A meta-gradient through unrolled inner training steps: the inner loop
retains each graph, and the meta-loss on the adapted parameters is
backpropagated through all of them after the loop."""
import torch
import torch.nn.functional as F


def meta_step(model, inner_loader, val_batch, meta_optimizer, inner_lr, steps):
    params = [p.clone() for p in model.parameters()]
    for x, y in inner_loader:
        loss = F.cross_entropy(model.functional(x, params), y)
        grads = torch.autograd.grad(loss, params, create_graph=True)
        params = [p - inner_lr * g for p, g in zip(params, grads)]
        loss.backward(retain_graph=True)
    vx, vy = val_batch
    meta_loss = F.cross_entropy(model.functional(vx, params), vy)
    meta_optimizer.zero_grad()
    meta_loss.backward()
    meta_optimizer.step()
