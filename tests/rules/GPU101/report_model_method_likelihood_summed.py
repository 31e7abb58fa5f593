# A likelihood from a model method is summed and never backpropagated.
import torch


def run(model, optimizer, loader, epochs):
    for epoch in range(epochs):
        train_loss = 0
        for data in loader:
            optimizer.zero_grad()
            loss = model.neglog_likelihood(data)
            objective = model(data)
            train_loss += loss  # expect: GPU101
            objective.backward()
            optimizer.step()
        print(float(train_loss))
