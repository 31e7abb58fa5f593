# A caption decoder whose initial recurrent state is computed from the image
# features by two linear layers (init_hidden_state).
import torch.nn as nn


class CaptionDecoder(nn.Module):
    def __init__(self, feature_dim=512, dim=256, vocab=5000):
        super().__init__()
        self.embedding = nn.Embedding(vocab, dim)
        self.init_h = nn.Linear(feature_dim, dim)
        self.init_c = nn.Linear(feature_dim, dim)
        self.cell = nn.LSTMCell(dim, dim)
        self.fc = nn.Linear(dim, vocab)

    def init_hidden_state(self, features):
        mean_features = features.mean(dim=1)
        return self.init_h(mean_features), self.init_c(mean_features)

    def forward(self, features, captions):
        h, c = self.init_hidden_state(features)
        scores = []
        for t in range(captions.size(1)):
            h, c = self.cell(self.embedding(captions[:, t]), (h, c))
            scores.append(self.fc(h))
        return scores
