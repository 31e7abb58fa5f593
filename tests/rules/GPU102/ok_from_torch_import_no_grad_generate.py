from torch import load, multinomial, no_grad, tensor

from model import GRUPoet
from vocab import itos, stoi

model = GRUPoet(vocab=len(itos)).cuda()
model.load_state_dict(load("poet.pt", map_location="cuda"))
model.eval()

hidden = model.init_hidden(1)
token = tensor([[stoi["<s>"]]], device="cuda")
poem = []
with no_grad():
    for _ in range(120):
        logits, hidden = model(token, hidden)
        token = multinomial(logits[0, -1].softmax(-1), 1).view(1, 1)
        poem.append(itos[token.item()])
print("".join(poem))
