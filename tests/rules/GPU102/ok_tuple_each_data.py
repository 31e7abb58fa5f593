# The state is rebuilt each batch as tuple([each.data for each in h]).
import torch
from torch import nn

lstm = nn.LSTM(8, 16, batch_first=True)
fc = nn.Linear(16, 1)
optimizer = torch.optim.Adam(list(lstm.parameters()) + list(fc.parameters()), lr=1e-3)
criterion = nn.BCEWithLogitsLoss()
loader = [(torch.randn(4, 5, 8), torch.randint(0, 2, (4,)).float()) for _ in range(10)]

for epoch in range(2):
    h = (torch.zeros(1, 4, 16), torch.zeros(1, 4, 16))
    for inputs, labels in loader:
        h = tuple([each.data for each in h])
        lstm.zero_grad()
        fc.zero_grad()
        out, h = lstm(inputs, h)
        loss = criterion(fc(out[:, -1]).squeeze(1), labels)
        loss.backward()
        optimizer.step()
