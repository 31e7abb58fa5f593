import torch


def prepare(sample, device):
    sample.to(device)
    return sample


def warmup(engine, device):
    engine.cuda()
    engine.half()
    state = engine.state()
    state.to(device)
