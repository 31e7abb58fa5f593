# A generic fitting loop: the objective's value of each step is appended to
# the history, and the backward runs through its newest element only.
# Every earlier step's graph stays referenced by the list.
import torch


def fit(factors, objective, steps=5000, tol=1e-7):
    optimizer = torch.optim.LBFGS(factors, lr=0.5) if steps < 100 else torch.optim.Adam(factors, lr=1e-2)
    history = []
    for step in range(steps):
        optimizer.zero_grad()
        history.append(objective(*factors))  # expect: GPU101
        if step > 1 and abs(history[-2] - history[-1]) < tol:
            break
        history[-1].backward()
        optimizer.step()
    return [value.item() for value in history]


def fit_weighted(factors, terms, weights, steps=5000):
    optimizer = torch.optim.Adam(factors, lr=1e-2)
    totals = []
    for step in range(steps):
        optimizer.zero_grad()
        parts = [weight * term(*factors) for term, weight in zip(terms, weights)]
        totals.append(sum(parts))  # expect: GPU101
        totals[-1].backward(retain_graph=True)  # expect: GPU104
        optimizer.step()
    return totals[-1].item()
