import torch
import torch.nn.functional as F


def train_one_epoch(model, loader, optimizer, p_drop=0.1):
    model.train()
    for tokens, targets in loader:
        tokens, targets = tokens.cuda(), targets.cuda()
        keep = torch.rand(tokens.size(0), tokens.size(1)).cuda()  # expect: GPU302
        tokens = torch.where(keep < p_drop, torch.zeros_like(tokens), tokens)
        logits = model(tokens)
        loss = F.cross_entropy(logits.view(-1, logits.size(-1)), targets.view(-1))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
