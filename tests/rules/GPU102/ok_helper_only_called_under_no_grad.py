import torch

from model import RNNModel


def rollout(model, first_token, steps):
    hidden = model.init_hidden(1)
    token = first_token
    out = []
    for _ in range(steps):
        logits, hidden = model(token, hidden)
        token = logits.argmax(-1)
        out.append(token.item())
    return out


model = RNNModel("GRU", ntoken=10000, ninp=256, nhid=256, nlayers=2).cuda()
model.eval()
with torch.no_grad():
    print(rollout(model, torch.tensor([[1]], device="cuda"), 50))
