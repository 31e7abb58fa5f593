# An encoder-decoder translation net: the encoder reads the source, the
# decoder attends to it, the head scores the next token.
import torch.nn as nn


class Encoder(nn.Module):
    def __init__(self, vocab, dim, layers):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.layers = nn.TransformerEncoder(nn.TransformerEncoderLayer(dim, 4, batch_first=True), layers)

    def forward(self, src):
        return self.layers(self.embed(src))


class Decoder(nn.Module):
    def __init__(self, vocab, dim, layers):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.layers = nn.TransformerDecoder(nn.TransformerDecoderLayer(dim, 4, batch_first=True), layers)

    def forward(self, tgt, memory):
        return self.layers(self.embed(tgt), memory)


class Translator(nn.Module):
    def __init__(self, vocab=8000, dim=256, layers=3):
        super().__init__()
        self.encoder = Encoder(vocab, dim, layers)
        self.decoder = Decoder(vocab, dim, layers)
        self.head = nn.Linear(dim, vocab)

    def forward(self, src, tgt):
        return self.head(self.decoder(tgt, self.encoder(src)))
