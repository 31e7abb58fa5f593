import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

dataset = TensorDataset(torch.randn(1024, 20), torch.randint(0, 2, (1024,)))
loader = DataLoader(dataset, batch_size=64, shuffle=True)

model = nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, 2)).to(device)
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)

for epoch in range(10):
    running_loss = 0.0
    for inputs, targets in loader:
        inputs, targets = inputs.to(device), targets.to(device)
        outputs = model(inputs)
        loss = criterion(outputs, targets)
        loss.backward()  # expect: GPU001
        optimizer.step()
        running_loss += loss.item()
    print(f"epoch {epoch}: loss {running_loss / len(loader):.4f}")
