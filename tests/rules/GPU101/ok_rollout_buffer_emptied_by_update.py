# The rollout buffer is emptied by make_batch() on every update.
import torch
import torch.nn as nn


class Agent(nn.Module):
    def __init__(self):
        super().__init__()
        self.data = []
        self.lstm = nn.LSTM(4, 8)
        self.optimizer = torch.optim.Adam(self.parameters())

    def put_data(self, transition):
        self.data.append(transition)

    def make_batch(self):
        batch = self.data
        self.data = []
        return batch

    def train_net(self):
        batch = self.make_batch()
        h = batch[0][1]
        out, _ = self.lstm(torch.stack([b[0] for b in batch]), (h[0].detach(), h[1].detach()))
        self.optimizer.zero_grad()
        out.sum().backward()
        self.optimizer.step()


model = Agent()
for episode in range(100):
    for t in range(20):
        s = torch.randn(1, 1, 4)
        _, hidden = model.lstm(s)
        model.put_data((s, hidden))
    model.train_net()
