import torch
import torch.nn.functional as F

from data import batch_iterator
from model import CharTransformer

model = CharTransformer(vocab_size=96).cuda()
optimizer = torch.optim.Adam(model.parameters(), lr=3e-4)
batches = batch_iterator("shakespeare.txt", block_size=256, batch_size=32)

it = 0
while it < 5000:
    xb, yb = next(batches)
    logits = model(xb.cuda())
    loss = F.cross_entropy(logits.view(-1, 96), yb.cuda().view(-1))
    loss.backward()
    optimizer.zero_grad(set_to_none=True)  # expect: GPU002
    optimizer.step()
    it += 1
