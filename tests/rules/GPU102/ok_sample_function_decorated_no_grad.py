import torch

from model import CharRNN


@torch.no_grad()
def sample(model, start_ids, length=500, temperature=1.0):
    model.eval()
    h = None
    x = torch.tensor([start_ids], device="cuda")
    out_ids = list(start_ids)
    for _ in range(length):
        logits, h = model(x, h)
        probs = (logits[:, -1] / temperature).softmax(-1)
        x = torch.multinomial(probs, 1)
        out_ids.append(x.item())
    return out_ids


model = CharRNN(vocab=128).cuda()
model.load_state_dict(torch.load("char_rnn.pt", map_location="cuda"))
print(sample(model, [ord("H")]))
