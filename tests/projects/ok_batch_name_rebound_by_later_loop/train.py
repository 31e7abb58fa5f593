# `batch` is a tensor in the training loop and a shard name in the later manifest loop; the second loop keeps only strings.
import json

import torch
import torch.nn.functional as F

from data import patch_loader, shard_names
from model import PatchAutoencoder

root = "data/patches"
loader = patch_loader(root, batch_size=256)
model = PatchAutoencoder().cuda()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)

for epoch in range(30):
    epoch_loss = 0.0
    for (batch,) in loader:
        batch = batch.cuda()
        out = model(batch)
        loss = F.mse_loss(out, batch)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        epoch_loss += loss.item()
    print(f"epoch {epoch} mse {epoch_loss / len(loader):.5f}")

results = []
names = shard_names(root)
for batch in names:
    results.append(batch)
with open("manifest.json", "w") as f:
    json.dump({"shards": results, "epochs": 30}, f)
torch.save(model.state_dict(), "autoencoder.pt")
