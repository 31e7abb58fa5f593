# Priming feeds the state back with grad on while discarding the output.
import torch


def prime(model, seq):
    model.eval()
    x = torch.LongTensor([seq])
    hidden = model.initHidden(1)
    for t in range(len(seq) - 1):
        _, hidden = model(x[:, t], hidden)  # expect: GPU103  # pedantic: GPU102
    return hidden
