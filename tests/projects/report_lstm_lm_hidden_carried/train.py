# Truncated BPTT without the detach: the state returned for one batch is fed, graph and all, into the next batch's forward.
import math

import torch
import torch.nn as nn

from corpus import load_corpus
from model import LSTMLanguageModel

bptt, batch_size, clip = 35, 20, 0.25
corpus = load_corpus("data/wikitext-2")
ntokens = len(corpus.dictionary)


def batchify(ids, bsz):
    nbatch = ids.size(0) // bsz
    return ids[: nbatch * bsz].view(bsz, -1).t().contiguous().cuda()


def get_batch(source, i):
    seq_len = min(bptt, len(source) - 1 - i)
    return source[i : i + seq_len], source[i + 1 : i + 1 + seq_len].reshape(-1)


train_data = batchify(corpus.train, batch_size)
model = LSTMLanguageModel(ntokens).cuda()
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=20.0)

for epoch in range(1, 41):
    model.train()
    total_loss = 0.0
    hidden = model.init_hidden(batch_size)
    for batch, i in enumerate(range(0, train_data.size(0) - 1, bptt)):
        data, targets = get_batch(train_data, i)
        optimizer.zero_grad()
        output, hidden = model(data, hidden)  # expect: GPU102
        loss = criterion(output.view(-1, ntokens), targets)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), clip)
        optimizer.step()
        total_loss += loss.item()
        if batch % 200 == 0 and batch > 0:
            cur = total_loss / 200
            print(f"epoch {epoch} batch {batch} loss {cur:.2f} ppl {math.exp(cur):.1f}")
            total_loss = 0.0
