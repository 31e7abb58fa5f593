"""Word-level language model: a 2-layer LSTM trained with truncated BPTT on a
plain-text corpus (one sentence per line), then sampled from.
"""
import argparse
import math
import os
import time

import torch
import torch.nn as nn


class Vocabulary:
    def __init__(self):
        self.word2idx = {}
        self.idx2word = []

    def add(self, word):
        if word not in self.word2idx:
            self.word2idx[word] = len(self.idx2word)
            self.idx2word.append(word)
        return self.word2idx[word]


def tokenize(path, vocab):
    ids = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            for word in line.split() + ["<eos>"]:
                ids.append(vocab.add(word))
    return torch.tensor(ids, dtype=torch.long)


def batchify(data, bsz, device):
    nbatch = data.size(0) // bsz
    return data[: nbatch * bsz].view(bsz, -1).t().contiguous().to(device)


def get_batch(source, i, bptt):
    seq_len = min(bptt, len(source) - 1 - i)
    return source[i:i + seq_len], source[i + 1:i + 1 + seq_len].reshape(-1)


class LSTMModel(nn.Module):
    def __init__(self, ntoken, ninp, nhid, nlayers, dropout=0.2):
        super().__init__()
        self.drop = nn.Dropout(dropout)
        self.encoder = nn.Embedding(ntoken, ninp)
        self.rnn = nn.LSTM(ninp, nhid, nlayers, dropout=dropout)
        self.decoder = nn.Linear(nhid, ntoken)
        self.nlayers, self.nhid = nlayers, nhid

    def forward(self, tokens, hidden):
        emb = self.drop(self.encoder(tokens))
        output, hidden = self.rnn(emb, hidden)
        logits = self.decoder(self.drop(output))
        return logits.view(-1, logits.size(-1)), hidden

    def init_hidden(self, bsz):
        weight = next(self.parameters())
        return (weight.new_zeros(self.nlayers, bsz, self.nhid),
                weight.new_zeros(self.nlayers, bsz, self.nhid))


def repackage_hidden(h):
    """Detach hidden states from the graph of the previous batch."""
    if isinstance(h, torch.Tensor):
        return h.detach()
    return tuple(repackage_hidden(v) for v in h)


def train_epoch(model, data, criterion, optimizer, args, epoch):
    model.train()
    total_loss = 0.0
    start = time.time()
    hidden = model.init_hidden(args.batch_size)
    for batch, i in enumerate(range(0, data.size(0) - 1, args.bptt)):
        inputs, targets = get_batch(data, i, args.bptt)
        hidden = repackage_hidden(hidden)
        optimizer.zero_grad()
        output, hidden = model(inputs, hidden)
        loss = criterion(output, targets)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), args.clip)
        optimizer.step()

        total_loss += loss.item()
        if batch % args.log_interval == 0 and batch > 0:
            cur_loss = total_loss / args.log_interval
            elapsed = (time.time() - start) * 1000 / args.log_interval
            print(f"| epoch {epoch:3d} | batch {batch:5d} | ms/batch {elapsed:5.1f} "
                  f"| loss {cur_loss:5.2f} | ppl {math.exp(cur_loss):8.2f}")
            total_loss = 0.0
            start = time.time()


def evaluate(model, data, criterion, args):
    model.eval()
    total_loss = 0.0
    hidden = model.init_hidden(args.eval_batch_size)
    with torch.no_grad():
        for i in range(0, data.size(0) - 1, args.bptt):
            inputs, targets = get_batch(data, i, args.bptt)
            output, hidden = model(inputs, hidden)
            total_loss += len(inputs) * criterion(output, targets).item()
    return total_loss / (len(data) - 1)


@torch.no_grad()
def generate(model, vocab, n_words, device, temperature=1.0):
    model.eval()
    hidden = model.init_hidden(1)
    token = torch.randint(len(vocab.idx2word), (1, 1), device=device)
    words = []
    for _ in range(n_words):
        output, hidden = model(token, hidden)
        weights = output.squeeze().div(temperature).exp()
        token.fill_(torch.multinomial(weights, 1).item())
        words.append(vocab.idx2word[token.item()])
    return " ".join(words)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--data", default="./data/wikitext-2")
    parser.add_argument("--emsize", type=int, default=650)
    parser.add_argument("--nhid", type=int, default=650)
    parser.add_argument("--nlayers", type=int, default=2)
    parser.add_argument("--lr", type=float, default=20.0)
    parser.add_argument("--clip", type=float, default=0.25)
    parser.add_argument("--epochs", type=int, default=40)
    parser.add_argument("--batch-size", type=int, default=20)
    parser.add_argument("--eval-batch-size", type=int, default=10)
    parser.add_argument("--bptt", type=int, default=35)
    parser.add_argument("--log-interval", type=int, default=200)
    args = parser.parse_args()

    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    vocab = Vocabulary()
    train_data = batchify(tokenize(os.path.join(args.data, "train.txt"), vocab), args.batch_size, device)
    val_data = batchify(tokenize(os.path.join(args.data, "valid.txt"), vocab), args.eval_batch_size, device)

    model = LSTMModel(len(vocab.idx2word), args.emsize, args.nhid, args.nlayers).to(device)
    criterion = nn.CrossEntropyLoss()
    optimizer = torch.optim.SGD(model.parameters(), lr=args.lr)

    best_val = None
    for epoch in range(1, args.epochs + 1):
        train_epoch(model, train_data, criterion, optimizer, args, epoch)
        val_loss = evaluate(model, val_data, criterion, args)
        print(f"| end of epoch {epoch:3d} | valid ppl {math.exp(val_loss):8.2f}")
        if best_val is None or val_loss < best_val:
            torch.save(model.state_dict(), "lm.pt")
            best_val = val_loss
        else:
            for group in optimizer.param_groups:
                group["lr"] /= 4.0

    print(generate(model, vocab, 100, device))


if __name__ == "__main__":
    main()
