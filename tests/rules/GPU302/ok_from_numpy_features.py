import numpy as np
import torch

from model import Regressor
from features import featurize

model = Regressor().cuda()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)

for epoch in range(20):
    for rows, targets in featurize():
        x = torch.from_numpy(np.stack(rows)).float().cuda()
        y = torch.tensor(targets).cuda()
        loss = torch.nn.functional.mse_loss(model(x).squeeze(1), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
