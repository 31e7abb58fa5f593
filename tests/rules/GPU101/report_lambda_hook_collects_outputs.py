import torch
from torch import nn


def fit(model: nn.Module, loader, steps: int):
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-4)
    attention_maps = []
    for block in model.blocks:
        block.attn.register_forward_hook(lambda module, args, out: attention_maps.append(out))  # expect: GPU101
    step = 0
    while step < steps:
        for tokens, targets in loader:
            logits = model(tokens)
            loss = nn.functional.cross_entropy(logits.flatten(0, 1), targets.flatten())
            loss.backward()
            optimizer.step()
            optimizer.zero_grad(set_to_none=True)
            step += 1
    return attention_maps
