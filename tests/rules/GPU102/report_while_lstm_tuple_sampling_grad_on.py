import torch

from model import CharLSTM
from vocab import decode, encode

model = CharLSTM(vocab=96, hidden=512, layers=3).cuda()
model.load_state_dict(torch.load("char_lstm.pt", map_location="cuda"))
model.eval()

h = torch.zeros(3, 1, 512, device="cuda")
c = torch.zeros(3, 1, 512, device="cuda")
x = torch.tensor([[encode("T")]], device="cuda")
generated = []
while len(generated) < 2000:
    logits, (h, c) = model(x, (h, c))  # expect: GPU103  # pedantic: GPU102
    x = torch.multinomial(logits[:, -1].softmax(-1), 1)
    generated.append(x.item())
print(decode(generated))
