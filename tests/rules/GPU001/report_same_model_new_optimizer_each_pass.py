# A new optimizer each pass does not clear the model's `.grad`: the same model accumulates every pass's gradients.
import torch
import torch.nn as nn

model = nn.Linear(5, 1)
for _ in range(5):
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
    loss = model(torch.randn(10, 5)).sum()
    loss.backward()  # expect: GPU001
    optimizer.step()
