import torch
import torch.nn.functional as F


class Learner:
    def __init__(self, model, loader, lr=1e-3):
        self.model = model.cuda()
        self.loader = loader
        self.opt = torch.optim.Adam(self.model.parameters(), lr=lr)

    def compute_loss(self, batch):
        x, y = batch
        return F.cross_entropy(self.model(x.cuda()), y.cuda())

    def backward(self, loss):
        loss.backward()  # expect: GPU001

    def step(self):
        self.opt.step()

    def fit(self, epochs=10):
        for _ in range(epochs):
            for batch in self.loader:
                loss = self.compute_loss(batch)
                self.backward(loss)
                self.step()
