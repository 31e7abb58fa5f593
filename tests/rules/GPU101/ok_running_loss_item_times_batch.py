import copy

import torch
import torch.nn as nn
from tqdm import tqdm

from data import dataloaders, dataset_sizes
from model import build_resnet

model = build_resnet(num_classes=2).cuda()
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.001, momentum=0.9)

for epoch in range(25):
    model.train()
    running_loss, running_corrects = 0.0, 0
    for inputs, labels in tqdm(dataloaders["train"]):
        inputs, labels = inputs.cuda(), labels.cuda()
        optimizer.zero_grad()
        outputs = model(inputs)
        loss = criterion(outputs, labels)
        loss.backward()
        optimizer.step()
        running_loss += loss.item() * inputs.size(0)
        running_corrects += torch.sum(outputs.argmax(1) == labels).item()
    print(epoch, running_loss / dataset_sizes["train"], running_corrects / dataset_sizes["train"])
best_weights = copy.deepcopy(model.state_dict())
