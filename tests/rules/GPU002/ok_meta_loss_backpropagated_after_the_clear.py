"""A meta-learning step: the inner loop backpropagates each adapted loss,
then the outer step clears and backpropagates the meta-loss, whose
gradients the step applies."""
import torch
import torch.nn.functional as F


def meta_step(model, inner_loader, val_batch, meta_optimizer, inner_lr):
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
