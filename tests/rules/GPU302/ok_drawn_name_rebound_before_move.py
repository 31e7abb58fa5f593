import torch


def train(model, optimizer, loader, table):
    for x, y in loader:
        index = torch.randint(0, len(table), (x.size(0),))
        index = table.lookup(index)
        index = index.cuda()
        loss = torch.nn.functional.cross_entropy(model(x.cuda(), index), y.cuda())
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
