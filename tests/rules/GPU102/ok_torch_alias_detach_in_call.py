import torch as T
from torch import nn

from data import chunks

encoder = nn.GRU(input_size=40, hidden_size=320, num_layers=2, batch_first=True).cuda()
classifier = nn.Linear(320, 48).cuda()
opt = T.optim.Adam(list(encoder.parameters()) + list(classifier.parameters()), lr=1e-3)

h = T.zeros(2, 8, 320, device="cuda")
for feats, phones in chunks("train", batch_size=8):
    opt.zero_grad()
    enc, h = encoder(feats.cuda(), h.detach())
    logits = classifier(enc)
    loss = nn.functional.cross_entropy(logits.transpose(1, 2), phones.cuda())
    loss.backward()
    opt.step()
