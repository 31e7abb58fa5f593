import torch

HELP = """Move your inputs with x.to(device), or x.cuda(), before the forward."""


def describe(t):
    # t.to(device) is not in place: write t = t.to(device)
    print("call t.cuda() first")
    return HELP


x = torch.zeros(3)
x = x.to_dense()
x.to_sparse()
x.cuda_graph_ready = True
