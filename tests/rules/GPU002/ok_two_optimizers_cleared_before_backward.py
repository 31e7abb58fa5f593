import torch
import torch.nn.functional as F

from data import loader
from model import Encoder, Decoder

encoder, decoder = Encoder().cuda(), Decoder().cuda()
enc_opt = torch.optim.Adam(encoder.parameters(), lr=1e-3)
dec_opt = torch.optim.Adam(decoder.parameters(), lr=1e-3)

for epoch in range(30):
    for x, _ in loader:
        x = x.cuda()
        enc_opt.zero_grad()
        dec_opt.zero_grad()
        recon = decoder(encoder(x))
        loss = F.mse_loss(recon, x)
        loss.backward()
        enc_opt.step()
        dec_opt.step()
