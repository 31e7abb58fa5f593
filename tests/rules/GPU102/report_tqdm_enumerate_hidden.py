import torch
import torch.nn.functional as F
from tqdm import tqdm

from data import TBPTTLoader
from model import QRNN

model = QRNN(input_size=300, hidden_size=1024, num_layers=4).cuda()
optimizer = torch.optim.SGD(model.parameters(), lr=30, weight_decay=1.2e-6)
loader = TBPTTLoader("wikitext-103", batch_size=60, bptt=140)

hidden = model.init_hidden(60)
for i, (x, y) in enumerate(tqdm(loader)):
    optimizer.zero_grad()
    out, hidden = model(x.cuda(), hidden)  # expect: GPU102
    loss = F.cross_entropy(out.view(-1, out.size(-1)), y.cuda().view(-1))
    loss.backward()
    optimizer.step()
