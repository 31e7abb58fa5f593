# A test that makes the first backward fail on purpose, cleans up, clears
# the partial gradients, and then runs a complete backward before the step.
import pytest
import torch


def test_recovers_after_failed_backward(model, optimizer, fail_next_backward):
    x = torch.rand(4, 2)
    output = model(x)
    fail_next_backward()
    with pytest.raises(RuntimeError):
        output.sum().backward()
    optimizer.zero_grad(set_to_none=True)
    output = model(x)
    output.sum().backward()
    optimizer.step()
