import torch
import torch.nn.functional as F
from tqdm import tqdm

from data import loader
from model import ConvNet

model = ConvNet().cuda()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9, nesterov=True)

for epoch in range(5):
    for images, labels in tqdm(loader):
        logits = model(images.cuda())
        loss = F.cross_entropy(logits, labels.cuda())
        loss.backward()
        optimizer.step()
        optimizer.zero_grad(set_to_none=True)
