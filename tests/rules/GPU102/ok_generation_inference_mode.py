import torch

from model import CharLSTM
from vocab import decode, encode

model = CharLSTM(vocab=96, hidden=512, layers=3).cuda()
model.load_state_dict(torch.load("char_lstm.pt", map_location="cuda"))
model.eval()

state = None
x = torch.tensor([[encode("T")]], device="cuda")
generated = []
with torch.inference_mode():
    while len(generated) < 2000:
        logits, state = model(x, state)
        x = torch.multinomial(logits[:, -1].softmax(-1), 1)
        generated.append(x.item())
print(decode(generated))
