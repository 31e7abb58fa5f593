import torch
import torch.nn.functional as F


class Trainer:
    def __init__(self, model, optimizer, resume=None):
        self.model = model
        self.optimizer = optimizer
        self.epoch = 0
        if resume:
            self.resume_from(resume)

    def resume_from(self, path):
        state = torch.load(path)  # expect: GPU501
        self.model.load_state_dict(state["model"])
        self.optimizer.load_state_dict(state["optimizer"])
        self.epoch = state["epoch"]

    def fit(self, loader, epochs):
        for self.epoch in range(self.epoch, epochs):
            for x, y in loader:
                loss = F.cross_entropy(self.model(x.cuda()), y.cuda())
                self.optimizer.zero_grad()
                loss.backward()
                self.optimizer.step()
