# Encoder and decoder of a captioning model; the decoder exposes its
# layers so that evaluation can decode one word at a time.
import torch
import torch.nn as nn


class Encoder(nn.Module):
    def __init__(self, dim=256):
        super().__init__()
        self.conv = nn.Sequential(nn.Conv2d(3, dim, 7, stride=4), nn.ReLU(), nn.AdaptiveAvgPool2d(8))

    def forward(self, images):
        return self.conv(images).flatten(2).transpose(1, 2)


class Decoder(nn.Module):
    def __init__(self, vocab_size, dim=256):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, dim)
        self.cell = nn.LSTMCell(2 * dim, dim)
        self.classifier = nn.Linear(dim, vocab_size)

    def forward(self, feats, words):
        h = c = feats.new_zeros(feats.size(0), self.cell.hidden_size)
        context = feats.mean(1)
        outputs = []
        for t in range(words.size(1)):
            h, c = self.cell(torch.cat([self.embed(words[:, t]), context], 1), (h, c))
            outputs.append(self.classifier(h))
        return torch.stack(outputs, 1)
