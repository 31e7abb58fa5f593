# Forwards inside `with pytest.raises(...)` after model.eval() raise before they build anything; the real forwards are under no_grad.
import pytest
import torch

from model import GRUClassifier


@pytest.fixture
def model():
    torch.manual_seed(0)
    net = GRUClassifier()
    net.eval()
    return net


def test_rejects_bad_shapes(model):
    model.eval()
    bad_inputs = [torch.randn(4, 16), torch.randn(4, 10, 8), torch.randn(2, 3, 10, 16)]
    for x in bad_inputs:
        with pytest.raises(ValueError):
            model(x)


def test_output_shape(model):
    with torch.no_grad():
        for batch in (1, 4, 9):
            out = model(torch.randn(batch, 12, 16))
            assert out.shape == (batch, 3)


def test_eval_is_deterministic(model):
    x = torch.randn(5, 7, 16)
    with torch.no_grad():
        assert torch.equal(model(x), model(x))
