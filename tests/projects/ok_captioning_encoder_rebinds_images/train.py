# `imgs = encoder(imgs)` rebinds the loop variable to this batch's features: nothing is carried into the next batch.
import torch
import torch.nn as nn
from torch.nn.utils.rnn import pack_padded_sequence

from data import caption_loader
from models import DecoderRNN, EncoderCNN

loader, vocab = caption_loader("data/coco", batch_size=128)
encoder = EncoderCNN(256).cuda()
decoder = DecoderRNN(256, 512, len(vocab)).cuda()
criterion = nn.CrossEntropyLoss()
params = list(decoder.parameters()) + list(encoder.proj.parameters()) + list(encoder.bn.parameters())
optimizer = torch.optim.Adam(params, lr=1e-3)

for epoch in range(5):
    for i, (imgs, caps, lengths) in enumerate(loader):
        imgs, caps = imgs.cuda(), caps.cuda()
        targets = pack_padded_sequence(caps, lengths, batch_first=True).data
        imgs = encoder(imgs)
        outputs = decoder(imgs, caps, lengths)
        loss = criterion(outputs, targets)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if i % 100 == 0:
            print(f"epoch {epoch} step {i}/{len(loader)} loss {loss.item():.4f}")
    torch.save({"encoder": encoder.state_dict(), "decoder": decoder.state_dict()}, f"caption_{epoch}.pt")
