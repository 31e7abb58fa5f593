# A test suite loops over layer classes and sizes, building a fresh module each time and running one check forward.
import pytest
import torch

from layers import MaxConv, MeanConv, assert_layouts


@pytest.mark.parametrize("hidden", [4, 16])
def test_layers_keep_shapes(hidden):
    x, adj = torch.randn(10, 8), (torch.rand(10, 10) > 0.5).float()
    for cls in (MeanConv, MaxConv):
        conv = cls(8, hidden)
        out = conv(x, adj)
        assert out.shape == (10, hidden)


def test_layouts_agree():
    x, adj = torch.randn(6, 3), (torch.rand(6, 6) > 0.5).float()
    conv = MeanConv(3, 5)
    assert_layouts(conv, x, adj, conv(x, adj))


class TestTraining:
    def test_forward_in_train_mode(self):
        conv = MeanConv(3, 2)
        outs = []
        for _ in range(3):
            outs.append(conv(torch.randn(4, 3), torch.ones(4, 4)))
        assert len(outs) == 3
