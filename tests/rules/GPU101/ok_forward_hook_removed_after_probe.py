import torch


def output_shapes(model, sample):
    outputs = []
    handles = [m.register_forward_hook(lambda mod, inp, out: outputs.append(out)) for m in model.children()]
    model(sample)
    for handle in handles:
        handle.remove()
    return [tuple(o.shape) for o in outputs]


def train(model, loader, optimizer, criterion):
    print(output_shapes(model, next(iter(loader))[0]))
    for x, y in loader:
        loss = criterion(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
