import torch
import torch.nn as nn


class Trainer:
    def __init__(self, model, data_iter, max_steps=100_000):
        self.model = model.cuda()
        self.data_iter = data_iter
        self.max_steps = max_steps
        self.optimizer = torch.optim.Adam(self.model.parameters(), lr=2e-4)
        self.criterion = nn.L1Loss()

    def train(self):
        step = 0
        while step < self.max_steps:
            lr_img, hr_img = next(self.data_iter)
            self.optimizer.zero_grad()
            sr = self.model(lr_img.cuda())
            loss = self.criterion(sr, hr_img.cuda())
            loss.backward()
            self.optimizer.step()
            step += 1
