# Linear evaluation: every parameter but the new head is frozen, so the
# head still requires grad and the test loop's forwards record a graph.
import torch
import torch.nn as nn
import torchvision


def linear_eval(train_loader, test_loader, epochs=10):
    model = torchvision.models.resnet18(num_classes=10)
    for name, param in model.named_parameters():
        if name not in ("fc.weight", "fc.bias"):
            param.requires_grad = False
    optimizer = torch.optim.Adam([p for p in model.parameters() if p.requires_grad], lr=1e-3)
    criterion = nn.CrossEntropyLoss()
    for epoch in range(epochs):
        model.train()
        for images, targets in train_loader:
            loss = criterion(model(images), targets)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        model.eval()
        correct = 0
        for images, targets in test_loader:
            logits = model(images)  # expect: GPU103
            correct += (logits.argmax(1) == targets).sum().item()
        print(epoch, correct)
