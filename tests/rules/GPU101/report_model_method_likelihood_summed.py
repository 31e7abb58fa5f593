# A likelihood from a model method is summed and never backpropagated.
# `model` is a parameter nothing else shows to be a module: reported with --pedantic.
import torch


def run(model, optimizer, loader, epochs):
    for epoch in range(epochs):
        train_loss = 0
        for data in loader:
            optimizer.zero_grad()
            loss = model.neglog_likelihood(data)
            objective = model(data)
            train_loss += loss  # pedantic: GPU101
            objective.backward()
            optimizer.step()
        print(float(train_loss))
