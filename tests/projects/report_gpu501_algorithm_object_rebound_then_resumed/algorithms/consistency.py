import torch
import torch.nn.functional as F


class ConsistencyTraining:
    """Holds the network, its optimizer and the training loop of one
    semi-supervised method."""

    def __init__(self, net, lr=0.03):
        self.model = net
        self.optimizer = torch.optim.SGD(net.parameters(), lr=lr, momentum=0.9)
        self.it = 0

    def train_loop(self, labelled, unlabelled, gpu):
        self.model.train()
        for (x, y), (u_weak, u_strong) in zip(labelled, unlabelled):
            x, y = x.cuda(gpu), y.cuda(gpu)
            with torch.no_grad():
                pseudo = self.model(u_weak.cuda(gpu)).argmax(1)
            loss = F.cross_entropy(self.model(x), y) + F.cross_entropy(self.model(u_strong.cuda(gpu)), pseudo)
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
            self.it += 1

    def save_model(self, path):
        torch.save({"model": self.model.state_dict(), "optimizer": self.optimizer.state_dict(), "it": self.it}, path)

    def load_model(self, path):
        checkpoint = torch.load(path)  # expect: GPU501
        self.model.load_state_dict(checkpoint["model"])
        self.optimizer.load_state_dict(checkpoint["optimizer"])
        self.it = checkpoint["it"]
