import torch


def make_causal_mask(size, device):
    return torch.ones(size, size).tril().to(device)


def train(model, loader, optimizer, device):
    mask = make_causal_mask(512, device)
    for tokens in loader:
        tokens = tokens.to(device)
        loss = model(tokens, mask=mask[: tokens.size(1), : tokens.size(1)]).loss
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
