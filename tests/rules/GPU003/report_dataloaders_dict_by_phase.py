import copy

import torch


def train_model(model, criterion, optimizer, dataloaders, device, num_epochs=25):
    best_wts = copy.deepcopy(model.state_dict())
    best_acc = 0.0
    for epoch in range(num_epochs):
        for phase in ["train", "val"]:
            if phase == "train":
                model.train()
            else:
                model.eval()
            corrects = 0
            for inputs, labels in dataloaders[phase]:
                inputs.to(device)  # expect: GPU003
                labels = labels.to(device)
                optimizer.zero_grad()
                with torch.set_grad_enabled(phase == "train"):
                    outputs = model(inputs)
                    loss = criterion(outputs, labels)
                    if phase == "train":
                        loss.backward()
                        optimizer.step()
                corrects += torch.sum(outputs.argmax(1) == labels).item()
            acc = corrects / len(dataloaders[phase].dataset)
            if phase == "val" and acc > best_acc:
                best_acc = acc
                best_wts = copy.deepcopy(model.state_dict())
    model.load_state_dict(best_wts)
    return model
