import torch
import torch.nn as nn

from data import loader

gru = nn.GRU(input_size=80, hidden_size=256, batch_first=True).cuda()
fc = nn.Linear(256, 29).cuda()
optimizer = torch.optim.Adam(list(gru.parameters()) + list(fc.parameters()), lr=1e-3)
ctc = nn.CTCLoss(blank=0)

hx = torch.zeros(1, 32, 256, device="cuda")
for feats, targets, in_lens, tgt_lens in loader:
    optimizer.zero_grad()
    out, hx = gru(feats.cuda(), hx=hx)  # expect: GPU102
    log_probs = fc(out).log_softmax(-1).transpose(0, 1)
    loss = ctc(log_probs, targets.cuda(), in_lens, tgt_lens)
    loss.backward()
    optimizer.step()
