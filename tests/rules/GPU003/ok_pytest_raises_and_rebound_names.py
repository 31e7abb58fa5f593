import pytest
import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(3, 1)

    def forward(self, x):
        return self.fc(x)


def test_meta_tensors_cannot_be_copied_back():
    x = torch.randn(2, 3, device="meta")
    with pytest.raises(NotImplementedError):
        x.cpu()


def test_module_moves_in_place():
    x = torch.zeros(3)
    x = Net()
    x.double()
    assert next(x.parameters()).dtype == torch.float64


def test_models_in_a_list():
    nets = [Net(), Net()]
    for net in nets:
        net.half()
    assert all(next(n.parameters()).dtype == torch.float16 for n in nets)
