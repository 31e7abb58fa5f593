import torch.nn as nn


class Encoder(nn.Module):
    def __init__(self, vocab=8000, dim=256):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.rnn = nn.GRU(dim, dim, batch_first=True)

    def forward(self, src):
        return self.rnn(self.embed(src))


class Decoder(nn.Module):
    def __init__(self, vocab=8000, dim=256):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.rnn = nn.GRU(dim, dim, batch_first=True)
        self.out = nn.Linear(dim, vocab)

    def forward(self, token, hidden, encoder_outputs):
        output, hidden = self.rnn(self.embed(token).unsqueeze(1), hidden)
        return self.out(output.squeeze(1)), hidden


class Seq2Seq(nn.Module):
    def __init__(self, encoder, decoder, device):
        super().__init__()
        self.encoder = encoder
        self.decoder = decoder
        self.device = device

    def forward(self, src, trg):
        encoder_outputs, hidden = self.encoder(src)
        outputs = []
        for t in range(trg.size(1)):
            output, hidden = self.decoder(trg[:, t], hidden, encoder_outputs)
            outputs.append(output)
        return outputs
