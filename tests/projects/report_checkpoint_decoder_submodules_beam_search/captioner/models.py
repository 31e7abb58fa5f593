# A CNN encoder and an LSTM decoder with attention; the decoder's pieces are
# public attributes so that beam search can drive them one step at a time.
import torch
import torch.nn as nn
import torchvision


class ImageEncoder(nn.Module):
    def __init__(self, size=14):
        super().__init__()
        trunk = torchvision.models.resnet50(weights=None)
        self.trunk = nn.Sequential(*list(trunk.children())[:-2])
        self.pool = nn.AdaptiveAvgPool2d((size, size))

    def forward(self, images):
        return self.pool(self.trunk(images)).permute(0, 2, 3, 1)


class SoftAttention(nn.Module):
    def __init__(self, feat_dim, hid_dim, att_dim):
        super().__init__()
        self.feat_proj = nn.Linear(feat_dim, att_dim)
        self.hid_proj = nn.Linear(hid_dim, att_dim)
        self.score = nn.Linear(att_dim, 1)

    def forward(self, feats, hidden):
        e = self.score(torch.tanh(self.feat_proj(feats) + self.hid_proj(hidden).unsqueeze(1)))
        alpha = e.squeeze(2).softmax(dim=1)
        return (feats * alpha.unsqueeze(2)).sum(dim=1), alpha


class CaptionDecoder(nn.Module):
    def __init__(self, vocab_size, emb_dim=512, hid_dim=512, feat_dim=2048):
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, emb_dim)
        self.attention = SoftAttention(feat_dim, hid_dim, 512)
        self.decode_step = nn.LSTMCell(emb_dim + feat_dim, hid_dim)
        self.init_h = nn.Linear(feat_dim, hid_dim)
        self.init_c = nn.Linear(feat_dim, hid_dim)
        self.fc = nn.Linear(hid_dim, vocab_size)

    def init_hidden_state(self, feats):
        mean = feats.mean(dim=1)
        return self.init_h(mean), self.init_c(mean)

    def forward(self, feats, captions):
        h, c = self.init_hidden_state(feats)
        emb = self.embedding(captions)
        outputs = []
        for t in range(captions.size(1)):
            ctx, _ = self.attention(feats, h)
            h, c = self.decode_step(torch.cat([emb[:, t], ctx], dim=1), (h, c))
            outputs.append(self.fc(h))
        return torch.stack(outputs, dim=1)
