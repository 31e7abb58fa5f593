import torch
from torch.autograd import Variable

from model import Net
from loader import train_loader

model = Net().cuda()
optimizer = torch.optim.SGD(model.parameters(), lr=0.01)

for epoch in range(10):
    for data, target in train_loader:
        data, target = Variable(data.cuda()), Variable(target.cuda())
        weights = torch.FloatTensor(data.size(0)).cuda()
        weights.fill_(1.0)
        output = model(data)
        loss = (torch.nn.functional.nll_loss(output, target, reduction="none") * weights).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
