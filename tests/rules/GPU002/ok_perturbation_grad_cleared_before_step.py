"""An adversarial attack on a graph: the perturbation is a tensor built
here with requires_grad=True that no optimizer updates; clearing its
gradient between the backward and the model's step touches nothing the
step applies."""
import torch
import torch.nn.functional as F


def attack_and_train(model, features, adj, labels, steps, lr):
    optimizer = torch.optim.Adam(model.parameters(), lr=lr)
    adj_changes = torch.zeros_like(adj, requires_grad=True)
    for step in range(steps):
        optimizer.zero_grad()
        loss = F.cross_entropy(model(features, adj + adj_changes), labels)
        loss.backward()
        direction = adj_changes.grad.sign()
        adj_changes.grad.zero_()
        with torch.no_grad():
            adj_changes.add_(0.01 * direction)
        optimizer.step()
