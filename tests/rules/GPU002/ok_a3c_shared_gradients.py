# A3C: the shared optimizer is cleared, the worker gradients are copied in, then it steps.
import torch


def ensure_shared_grads(model, shared_model):
    for param, shared_param in zip(model.parameters(), shared_model.parameters()):
        if shared_param.grad is not None:
            return
        shared_param._grad = param.grad


def train(model, shared_model, optimizer, batches):
    for x, y in batches:
        loss = torch.nn.functional.mse_loss(model(x), y)
        model.zero_grad()
        loss.backward()
        optimizer.zero_grad()
        ensure_shared_grads(model, shared_model)
        optimizer.step()
        model.load_state_dict(shared_model.state_dict())
