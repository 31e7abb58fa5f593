#!/usr/bin/env python
# coding: utf-8

# # Fashion-MNIST with a small MLP
# Exported from a notebook; each `# In[n]:` marks a cell.

# In[1]:


import matplotlib.pyplot as plt
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader
from torchvision import datasets, transforms

device = "cuda" if torch.cuda.is_available() else "cpu"
print(device, torch.__version__)


# In[2]:


tfm = transforms.Compose([transforms.ToTensor(), transforms.Normalize((0.2860,), (0.3530,))])
train_ds = datasets.FashionMNIST("data", train=True, download=True, transform=tfm)
test_ds = datasets.FashionMNIST("data", train=False, download=True, transform=tfm)
train_dl = DataLoader(train_ds, batch_size=256, shuffle=True, num_workers=2)
test_dl = DataLoader(test_ds, batch_size=1024)
classes = train_ds.classes
len(train_ds), len(test_ds)


# In[3]:


model = nn.Sequential(
    nn.Flatten(),
    nn.Linear(28 * 28, 512), nn.ReLU(), nn.Dropout(0.2),
    nn.Linear(512, 256), nn.ReLU(), nn.Dropout(0.2),
    nn.Linear(256, 10),
).to(device)
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
model


# In[4]:


train_losses = []
epoch_acc = []
for epoch in range(10):
    model.train()
    correct = 0
    for xb, yb in train_dl:
        xb, yb = xb.to(device), yb.to(device)
        logits = model(xb)
        loss = F.cross_entropy(logits, yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        train_losses.append(loss)  # expect: GPU101
        correct += (logits.argmax(1) == yb).sum().item()
    epoch_acc.append(correct / len(train_ds))
    print(f"epoch {epoch}: train acc {epoch_acc[-1]:.3f}")


# In[5]:


plt.figure(figsize=(8, 3))
plt.plot([l.item() for l in train_losses], alpha=0.5)
plt.xlabel("step")
plt.ylabel("loss")
plt.show()


# In[6]:


model.eval()
all_preds, all_labels = [], []
for xb, yb in test_dl:
    preds = model(xb.to(device)).argmax(1)  # expect: GPU103
    all_preds.append(preds.cpu().numpy())
    all_labels.append(yb.numpy())
all_preds = np.concatenate(all_preds)
all_labels = np.concatenate(all_labels)
print("test accuracy:", (all_preds == all_labels).mean())


# In[7]:


confusion = np.zeros((10, 10), dtype=int)
for t, p in zip(all_labels, all_preds):
    confusion[t, p] += 1
plt.imshow(confusion, cmap="Blues")
plt.xticks(range(10), classes, rotation=90)
plt.yticks(range(10), classes)
plt.colorbar()
plt.show()


# In[8]:


with torch.no_grad():
    sample, label = test_ds[0]
    probs = model(sample.unsqueeze(0).to(device)).softmax(-1)[0]
print(classes[label], "->", classes[probs.argmax().item()], f"{probs.max().item():.2%}")
torch.save(model.state_dict(), "fmnist_mlp.pt")
torch.cuda.empty_cache()
