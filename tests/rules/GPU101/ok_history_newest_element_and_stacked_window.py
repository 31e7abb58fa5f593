# The newest loss is backpropagated on its own, and every k steps the whole
# window is stacked into a second loss that is backpropagated too, then the
# window starts afresh: the list is consumed, not kept.
import torch


def fit(factors, objective, smooth, steps=5000, window_size=8):
    optimizer = torch.optim.Adam(factors, lr=1e-2)
    window = []
    for step in range(steps):
        optimizer.zero_grad()
        window.append(objective(*factors))
        window[-1].backward(retain_graph=True)
        if len(window) == window_size:
            spread = smooth(torch.stack(window))
            spread.backward()
            window = []
        optimizer.step()


def track(factors, objective, steps=5000):
    optimizer = torch.optim.Adam(factors, lr=1e-2)
    history = []
    for step in range(steps):
        optimizer.zero_grad()
        loss = objective(*factors)
        history.append(loss.item())
        loss.backward()
        optimizer.step()
    return history
