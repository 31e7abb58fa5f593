# Epoch loop: trains, then scores the validation split through engine.evaluate().
import torch
from torch.utils.data import DataLoader
from torchvision import datasets, transforms

from engine import evaluate, train_one_epoch
from models import Net

device = torch.device("cuda")
tfm = transforms.Compose([transforms.ToTensor(), transforms.Normalize((0.49, 0.48, 0.45), (0.25, 0.24, 0.26))])
train_loader = DataLoader(datasets.CIFAR10("data", train=True, download=True, transform=tfm), batch_size=128, shuffle=True)
val_loader = DataLoader(datasets.CIFAR10("data", train=False, transform=tfm), batch_size=256)

model = Net().to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9, weight_decay=5e-4)
scheduler = torch.optim.lr_scheduler.CosineAnnealingLR(optimizer, T_max=30)

for epoch in range(30):
    train_loss = train_one_epoch(model, train_loader, optimizer, device)
    val_loss, val_acc = evaluate(model, val_loader, device)
    scheduler.step()
    print(f"epoch {epoch}: train {train_loss:.3f} val {val_loss:.3f} acc {val_acc:.3f}")
