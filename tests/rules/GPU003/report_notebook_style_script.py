import numpy as np
import pandas as pd
import torch
import torch.nn as nn

df = pd.read_csv("train.csv")
X = torch.from_numpy(df.drop(columns=["target"]).values.astype(np.float32))
y = torch.from_numpy(df["target"].values.astype(np.float32)).unsqueeze(1)

X.cuda()  # expect: GPU003
y.cuda()  # expect: GPU003

model = nn.Sequential(nn.Linear(X.shape[1], 64), nn.ReLU(), nn.Linear(64, 1)).cuda()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
loss_fn = nn.BCEWithLogitsLoss()

for epoch in range(200):
    optimizer.zero_grad()
    loss = loss_fn(model(X), y)
    loss.backward()
    optimizer.step()
