import torch
from torch import nn
from torch.utils.data import DataLoader

from ignite.engine import Engine, Events
from data import TrainSet

model = nn.Sequential(nn.Linear(100, 50), nn.ReLU(), nn.Linear(50, 2)).cuda()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
criterion = nn.CrossEntropyLoss()
loader = DataLoader(TrainSet(), batch_size=32, shuffle=True)


def update(engine, batch):
    model.train()
    optimizer.zero_grad()
    x, y = batch
    loss = criterion(model(x.cuda()), y.cuda())
    loss.backward()
    optimizer.step()
    return loss.item()


trainer = Engine(update)


@trainer.on(Events.EPOCH_COMPLETED)
def log(engine):
    print(engine.state.epoch, engine.state.output)


trainer.run(loader, max_epochs=10)
