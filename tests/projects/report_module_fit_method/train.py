# Builds the model and lets it train and score itself.
import torch
from torchvision import datasets, transforms

from models.net import Net

tfm = transforms.Compose([transforms.ToTensor(), transforms.Normalize((0.1307,), (0.3081,))])
train_set = datasets.MNIST("data", train=True, download=True, transform=tfm)
test_set = datasets.MNIST("data", train=False, transform=tfm)
train_loader = torch.utils.data.DataLoader(train_set, batch_size=128, shuffle=True, num_workers=4)
test_loader = torch.utils.data.DataLoader(test_set, batch_size=512)

model = Net().cuda()
model.fit(train_loader, epochs=10)
print(f"test accuracy {model.evaluate(test_loader):.4f}")
print("first predictions", model.predict(test_loader)[:10])
print("mean feature norm", sum(model.feature_norms(test_loader)) / len(test_loader))
