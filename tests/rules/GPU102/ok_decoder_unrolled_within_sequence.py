import random

import torch
import torch.nn as nn

from data import pair_loader, SOS_TOKEN
from model import AttnDecoderRNN, EncoderRNN

encoder, decoder = EncoderRNN(4000, 256).cuda(), AttnDecoderRNN(256, 3000).cuda()
enc_opt = torch.optim.SGD(encoder.parameters(), lr=0.01)
dec_opt = torch.optim.SGD(decoder.parameters(), lr=0.01)
criterion = nn.NLLLoss()

for src, tgt in pair_loader:
    src, tgt = src.cuda(), tgt.cuda()
    enc_opt.zero_grad()
    dec_opt.zero_grad()
    enc_outputs, enc_hidden = encoder(src)
    dec_input = torch.full((src.size(0), 1), SOS_TOKEN, device="cuda")
    dec_hidden = enc_hidden
    loss = 0
    for t in range(tgt.size(1)):
        dec_out, dec_hidden = decoder(dec_input, dec_hidden, enc_outputs)
        loss = loss + criterion(dec_out, tgt[:, t])
        use_teacher = random.random() < 0.5
        dec_input = tgt[:, t].unsqueeze(1) if use_teacher else dec_out.argmax(-1, keepdim=True).detach()
    loss.backward()
    enc_opt.step()
    dec_opt.step()
