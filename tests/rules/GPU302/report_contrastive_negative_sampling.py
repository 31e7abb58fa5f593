import torch
import torch.nn.functional as F

from model import ItemTower, UserTower

device = "cuda:0"
users, items = UserTower().to(device), ItemTower().to(device)
optimizer = torch.optim.Adam(list(users.parameters()) + list(items.parameters()), lr=1e-3)
num_items, k = 50000, 20

for step, (user_ids, pos_ids) in enumerate(loader):  # noqa: F821
    user_ids, pos_ids = user_ids.to(device), pos_ids.to(device)
    neg_ids = torch.randint(0, num_items, (user_ids.size(0), k)).to(device)  # expect: GPU302
    u = users(user_ids)
    pos = (u * items(pos_ids)).sum(-1, keepdim=True)
    neg = torch.einsum("bd,bkd->bk", u, items(neg_ids))
    logits = torch.cat([pos, neg], dim=1)
    loss = F.cross_entropy(logits, torch.zeros(logits.size(0), dtype=torch.long, device=device))
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
