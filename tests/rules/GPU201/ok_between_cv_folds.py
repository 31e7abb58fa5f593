import torch
import torch.nn as nn
from sklearn.model_selection import KFold
from torch.utils.data import DataLoader, Subset

from data import full_dataset
from model import Net

kfold = KFold(n_splits=5, shuffle=True, random_state=0)
for fold, (train_idx, _) in enumerate(kfold.split(range(len(full_dataset)))):
    loader = DataLoader(Subset(full_dataset, train_idx), batch_size=64, shuffle=True)
    model = Net().cuda()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    criterion = nn.CrossEntropyLoss()
    for x, y in loader:
        optimizer.zero_grad()
        loss = criterion(model(x.cuda()), y.cuda())
        loss.backward()
        optimizer.step()
    torch.save(model.state_dict(), f"fold{fold}.pt")
    del model, optimizer
    torch.cuda.empty_cache()
