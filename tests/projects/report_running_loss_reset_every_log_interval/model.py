# Small transformer encoder classifier for token sequences.
import torch.nn as nn


class SeqClassifier(nn.Module):
    def __init__(self, vocab_size, d_model=256, nhead=4, nlayers=4, n_classes=2):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, d_model)
        layer = nn.TransformerEncoderLayer(d_model, nhead, 4 * d_model, dropout=0.1, batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, nlayers)
        self.head = nn.Linear(d_model, n_classes)

    def forward(self, tokens, pad_mask):
        h = self.encoder(self.embed(tokens), src_key_padding_mask=pad_mask)
        return self.head(h.mean(dim=1))
