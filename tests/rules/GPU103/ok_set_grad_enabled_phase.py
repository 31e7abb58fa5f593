import torch
import torch.nn as nn

from data import dataloaders, dataset_sizes
from model import build_finetune_model

model = build_finetune_model(num_classes=2).cuda()
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.001, momentum=0.9)

for epoch in range(25):
    for phase in ["train", "val"]:
        if phase == "train":
            model.train()
        else:
            model.eval()
        running_loss = 0.0
        for inputs, labels in dataloaders[phase]:
            inputs, labels = inputs.cuda(), labels.cuda()
            optimizer.zero_grad()
            with torch.set_grad_enabled(phase == "train"):
                outputs = model(inputs)
                loss = criterion(outputs, labels)
                if phase == "train":
                    loss.backward()
                    optimizer.step()
            running_loss += loss.item() * inputs.size(0)
        print(f"{phase} loss: {running_loss / dataset_sizes[phase]:.4f}")
