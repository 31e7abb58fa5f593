# A tutorial script: a demo backward at module level, a helper that looks
# at gradients (clearing them), then a training function with its own
# clear, backward and step. No step ever applies cleared gradients.
import torch
import torch.nn as nn

x = torch.arange(3, dtype=torch.float32, requires_grad=True)
y = ((x + 2) ** 2 + 3).mean()
y.backward()
print(x.grad)

model = nn.Sequential(nn.Linear(2, 8), nn.Tanh(), nn.Linear(8, 1))


def visualize_gradients(net, inputs, labels):
    net.zero_grad()
    loss = nn.functional.binary_cross_entropy_with_logits(net(inputs).squeeze(1), labels)
    loss.backward()
    grads = {name: p.grad.abs().mean().item() for name, p in net.named_parameters()}
    net.zero_grad()
    return grads


def train_model(net, optimizer, loader, epochs=10):
    net.train()
    for epoch in range(epochs):
        for inputs, labels in loader:
            preds = net(inputs).squeeze(1)
            loss = nn.functional.binary_cross_entropy_with_logits(preds, labels.float())
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()


print(visualize_gradients(model, torch.randn(4, 2), torch.ones(4)))
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
train_model(model, optimizer, [(torch.randn(4, 2), torch.ones(4))])
