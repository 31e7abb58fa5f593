import torch.nn as nn
from torch.utils.checkpoint import checkpoint


class Tagger(nn.Module):
    def __init__(self, vectors, hidden, tags):
        super().__init__()
        self.embedding = nn.Embedding.from_pretrained(vectors, padding_idx=0)
        self.encoder = nn.TransformerEncoder(nn.TransformerEncoderLayer(vectors.size(1), 4, batch_first=True), 2)
        self.classifier = nn.Linear(vectors.size(1), tags)

    def forward(self, words):
        padding = words == 0
        embedded = self.embedding(words).float()
        encoded = checkpoint(  # expect: GPU005
            self.encoder,
            embedded,
            None,
            padding,
        )
        return self.classifier(encoded)
