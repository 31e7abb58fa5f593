import torch
import torch.nn as nn
import torch.nn.functional as F


class ConvAutoencoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = nn.Sequential(nn.Conv2d(1, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2))
        self.decoder = nn.Sequential(nn.ConvTranspose2d(16, 1, 2, stride=2), nn.Sigmoid())

    def forward(self, x):
        return self.decoder(self.encoder(x))


model = ConvAutoencoder().cuda()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
for epoch in range(20):
    for data in train_loader:
        images = data.float()
        optimizer.zero_grad()
        images.cuda()  # expect: GPU003
        outputs = model(images)
        loss = F.mse_loss(outputs, images)
        loss.backward()
        optimizer.step()
