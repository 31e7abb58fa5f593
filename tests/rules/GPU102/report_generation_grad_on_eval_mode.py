import torch

from data import corpus
from model import RNNModel

model = RNNModel("LSTM", ntoken=len(corpus.dictionary), ninp=200, nhid=200, nlayers=2).cuda()
model.load_state_dict(torch.load("model.pt", map_location="cuda"))
model.eval()

hidden = model.init_hidden(1)
inp = torch.randint(len(corpus.dictionary), (1, 1), dtype=torch.long, device="cuda")
words = []
for i in range(1000):
    output, hidden = model(inp, hidden)  # expect: GPU103  # pedantic: GPU102
    word_weights = output.squeeze().div(0.8).exp()
    word_idx = torch.multinomial(word_weights, 1)[0]
    inp.fill_(word_idx)
    words.append(corpus.dictionary.idx2word[word_idx.item()])
print(" ".join(words))
