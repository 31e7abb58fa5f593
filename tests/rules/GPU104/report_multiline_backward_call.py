import torch


def train(model, loader, optimizer, scaler):
    for inputs, targets in loader:
        with torch.autocast("cuda", dtype=torch.float16):
            loss = torch.nn.functional.cross_entropy(model(inputs), targets)
        optimizer.zero_grad()
        scaler.scale(loss).backward(  # expect: GPU104
            retain_graph=True,
        )
        scaler.step(optimizer)
        scaler.update()
