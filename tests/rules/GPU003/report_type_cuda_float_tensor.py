import torch
from torch.autograd import Variable

use_cuda = torch.cuda.is_available()
dtype = torch.cuda.FloatTensor if use_cuda else torch.FloatTensor


def train(model, optimizer, loader, epochs=10):
    for epoch in range(epochs):
        for data, target in loader:
            data.type(dtype)  # expect: GPU003
            data, target = Variable(data), Variable(target.type(torch.LongTensor))
            optimizer.zero_grad()
            loss = torch.nn.functional.nll_loss(model(data), target)
            loss.backward()
            optimizer.step()
