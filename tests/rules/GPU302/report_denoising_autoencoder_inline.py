import torch
import torch.nn as nn

from autoencoder import ConvAutoencoder

model = ConvAutoencoder().cuda()
criterion = nn.MSELoss()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3, weight_decay=1e-5)

for epoch in range(20):
    for data in train_loader:  # noqa: F821
        img, _ = data
        img = img.cuda()
        noisy = img + 0.3 * torch.randn(img.size()).cuda()  # expect: GPU302
        output = model(noisy.clamp(0.0, 1.0))
        loss = criterion(output, img)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(f"epoch {epoch + 1}, loss {loss.item():.4f}")
