# The optimizer's closure clears, then backpropagates: step(closure) reevaluates the loss in the right order.
import torch


def step_test(optimizer, weight, bias, x):
    def closure():
        optimizer.zero_grad()
        loss = (weight.mv(x) + bias).pow(2).sum()
        loss.backward()
        return loss

    initial = closure().item()
    for _ in range(5):
        optimizer.step(closure)
    return closure().item() < initial


def test_adam():
    weight = torch.randn(10, 5, requires_grad=True)
    bias = torch.randn(10, requires_grad=True)
    optimizer = torch.optim.Adam([weight, bias], lr=1e-3)
    for _ in range(2):
        assert step_test(optimizer, weight, bias, torch.randn(5))
