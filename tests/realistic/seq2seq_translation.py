"""French -> English translation with a GRU encoder/decoder and teacher forcing.

Pairs are read from a tab-separated file (one "french<TAB>english" pair per line).
"""
import random
import re
import time
import unicodedata

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch import optim

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
SOS_token, EOS_token = 0, 1
MAX_LENGTH = 12
teacher_forcing_ratio = 0.5


class Lang:
    def __init__(self, name):
        self.name = name
        self.word2index = {}
        self.index2word = {SOS_token: "SOS", EOS_token: "EOS"}
        self.n_words = 2

    def add_sentence(self, sentence):
        for word in sentence.split(" "):
            if word not in self.word2index:
                self.word2index[word] = self.n_words
                self.index2word[self.n_words] = word
                self.n_words += 1


def normalize(s):
    s = "".join(c for c in unicodedata.normalize("NFD", s.lower().strip()) if unicodedata.category(c) != "Mn")
    s = re.sub(r"([.!?])", r" \1", s)
    return re.sub(r"[^a-zA-Z.!?]+", r" ", s).strip()


def read_pairs(path):
    with open(path, encoding="utf-8") as f:
        pairs = [[normalize(s) for s in line.split("\t")[:2]] for line in f]
    return [p for p in pairs if len(p[0].split()) < MAX_LENGTH and len(p[1].split()) < MAX_LENGTH]


def tensor_from_sentence(lang, sentence):
    ids = [lang.word2index[w] for w in sentence.split(" ")] + [EOS_token]
    return torch.tensor(ids, dtype=torch.long, device=device).view(-1, 1)


class EncoderRNN(nn.Module):
    def __init__(self, input_size, hidden_size):
        super().__init__()
        self.hidden_size = hidden_size
        self.embedding = nn.Embedding(input_size, hidden_size)
        self.gru = nn.GRU(hidden_size, hidden_size)

    def forward(self, token, hidden):
        embedded = self.embedding(token).view(1, 1, -1)
        return self.gru(embedded, hidden)

    def init_hidden(self):
        return torch.zeros(1, 1, self.hidden_size, device=device)


class DecoderRNN(nn.Module):
    def __init__(self, hidden_size, output_size):
        super().__init__()
        self.embedding = nn.Embedding(output_size, hidden_size)
        self.gru = nn.GRU(hidden_size, hidden_size)
        self.out = nn.Linear(hidden_size, output_size)

    def forward(self, token, hidden):
        output = F.relu(self.embedding(token).view(1, 1, -1))
        output, hidden = self.gru(output, hidden)
        return F.log_softmax(self.out(output[0]), dim=1), hidden


def train(input_tensor, target_tensor, encoder, decoder, encoder_optimizer, decoder_optimizer, criterion):
    encoder_hidden = encoder.init_hidden()
    encoder_optimizer.zero_grad()
    decoder_optimizer.zero_grad()

    loss = 0
    for ei in range(input_tensor.size(0)):
        _, encoder_hidden = encoder(input_tensor[ei], encoder_hidden)

    decoder_input = torch.tensor([[SOS_token]], device=device)
    decoder_hidden = encoder_hidden
    use_teacher_forcing = random.random() < teacher_forcing_ratio
    for di in range(target_tensor.size(0)):
        decoder_output, decoder_hidden = decoder(decoder_input, decoder_hidden)
        loss += criterion(decoder_output, target_tensor[di])
        if use_teacher_forcing:
            decoder_input = target_tensor[di]
        else:
            decoder_input = decoder_output.topk(1)[1].squeeze().detach()
            if decoder_input.item() == EOS_token:
                break

    loss.backward()
    encoder_optimizer.step()
    decoder_optimizer.step()
    return loss.item() / target_tensor.size(0)


def train_iters(pairs, input_lang, output_lang, encoder, decoder, n_iters, print_every=1000, lr=0.01):
    start = time.time()
    print_loss_total = 0.0
    encoder_optimizer = optim.SGD(encoder.parameters(), lr=lr)
    decoder_optimizer = optim.SGD(decoder.parameters(), lr=lr)
    criterion = nn.NLLLoss()
    training_pairs = [random.choice(pairs) for _ in range(n_iters)]

    for it in range(1, n_iters + 1):
        src, tgt = training_pairs[it - 1]
        input_tensor = tensor_from_sentence(input_lang, src)
        target_tensor = tensor_from_sentence(output_lang, tgt)
        print_loss_total += train(input_tensor, target_tensor, encoder, decoder,
                                  encoder_optimizer, decoder_optimizer, criterion)
        if it % print_every == 0:
            print(f"{time.time() - start:.0f}s ({it} {it / n_iters * 100:.0f}%) {print_loss_total / print_every:.4f}")
            print_loss_total = 0.0


def evaluate(encoder, decoder, input_lang, output_lang, sentence):
    encoder.eval()
    decoder.eval()
    with torch.no_grad():
        input_tensor = tensor_from_sentence(input_lang, sentence)
        encoder_hidden = encoder.init_hidden()
        for ei in range(input_tensor.size(0)):
            _, encoder_hidden = encoder(input_tensor[ei], encoder_hidden)

        decoder_input = torch.tensor([[SOS_token]], device=device)
        decoder_hidden = encoder_hidden
        decoded_words = []
        for _ in range(MAX_LENGTH):
            decoder_output, decoder_hidden = decoder(decoder_input, decoder_hidden)
            top_index = decoder_output.argmax(dim=1).item()
            if top_index == EOS_token:
                decoded_words.append("<EOS>")
                break
            decoded_words.append(output_lang.index2word[top_index])
            decoder_input = torch.tensor([[top_index]], device=device)
    encoder.train()
    decoder.train()
    return decoded_words


def main():
    pairs = read_pairs("data/fra-eng.txt")
    input_lang, output_lang = Lang("fra"), Lang("eng")
    for src, tgt in pairs:
        input_lang.add_sentence(src)
        output_lang.add_sentence(tgt)

    encoder = EncoderRNN(input_lang.n_words, 256).to(device)
    decoder = DecoderRNN(256, output_lang.n_words).to(device)
    train_iters(pairs, input_lang, output_lang, encoder, decoder, n_iters=75000, print_every=5000)

    for src, tgt in random.sample(pairs, 10):
        print(">", src)
        print("=", tgt)
        print("<", " ".join(evaluate(encoder, decoder, input_lang, output_lang, src)))


if __name__ == "__main__":
    main()
