# Bag-of-embeddings text classifier.
import torch.nn as nn


class TextClassifier(nn.Module):
    def __init__(self, vocab_size, dim=128, n_classes=4):
        super().__init__()
        self.embedding = nn.EmbeddingBag(vocab_size, dim, mode="mean")
        self.dropout = nn.Dropout(0.1)
        self.fc = nn.Linear(dim, n_classes)

    def forward(self, batch):
        return self.fc(self.dropout(self.embedding(batch["tokens"], batch["offsets"])))
