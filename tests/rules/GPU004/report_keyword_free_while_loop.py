import torch


def evaluate(model, data):
    model.eval()
    with torch.inference_mode():
        return model(data).mean().item()


def train(model, stream, optimizer, holdout, max_steps):
    model.train()
    step = 0
    while step < max_steps:
        x, y = next(stream)
        loss = torch.nn.functional.mse_loss(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        step += 1
        if step % 100 == 0:
            evaluate(model, holdout)  # expect: GPU004
