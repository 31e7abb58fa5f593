"""A meta-learner whose forward adapts a copy of the network to each
episode with autograd.grad: scoring it needs grad on, though its score is
never backpropagated."""
import numpy as np
import torch
from torch import autograd, nn


class Learner(nn.Module):
    def __init__(self, net, lr):
        super().__init__()
        self.net = net
        self.lr = lr

    def forward(self, support_x, support_y, query_x, query_y):
        loss = nn.functional.cross_entropy(self.net(support_x), support_y)
        grads = autograd.grad(loss, self.net.parameters(), create_graph=True)
        adapted = [p - self.lr * g for p, g in zip(self.net.parameters(), grads)]
        logits = torch.func.functional_call(self.net, dict(zip([n for n, _ in self.net.named_parameters()], adapted)), query_x)
        return (logits.argmax(1) == query_y).float().mean().item(), grads


class MetaLearner(nn.Module):
    def __init__(self, net, lr, meta_lr):
        super().__init__()
        self.learner = Learner(net, lr)
        self.optimizer = torch.optim.Adam(self.learner.parameters(), lr=meta_lr)

    def forward(self, support_x, support_y, query_x, query_y):
        self.optimizer.zero_grad()
        total = 0
        for i in range(support_y.size(0)):
            acc, grads = self.learner(support_x[i], support_y[i], query_x[i], query_y[i])
            total = total + sum(g.sum() for g in grads)
        total.backward()
        self.optimizer.step()

    def pred(self, support_x, support_y, query_x, query_y):
        accs = []
        for i in range(support_y.size(0)):
            acc, _ = self.learner(support_x[i], support_y[i], query_x[i], query_y[i])
            accs.append(acc)
        return np.array(accs).mean()
