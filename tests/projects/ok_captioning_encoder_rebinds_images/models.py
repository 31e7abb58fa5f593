# CNN encoder and LSTM caption decoder (teacher forcing over the whole caption).
import torch
import torch.nn as nn
import torchvision
from torch.nn.utils.rnn import pack_padded_sequence


class EncoderCNN(nn.Module):
    def __init__(self, embed_size):
        super().__init__()
        resnet = torchvision.models.resnet50(weights="IMAGENET1K_V2")
        self.cnn = nn.Sequential(*list(resnet.children())[:-1])
        for p in self.cnn.parameters():
            p.requires_grad_(False)
        self.proj = nn.Linear(resnet.fc.in_features, embed_size)
        self.bn = nn.BatchNorm1d(embed_size)

    def forward(self, images):
        return self.bn(self.proj(self.cnn(images).flatten(1)))


class DecoderRNN(nn.Module):
    def __init__(self, embed_size, hidden_size, vocab_size, num_layers=1):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, embed_size)
        self.lstm = nn.LSTM(embed_size, hidden_size, num_layers, batch_first=True)
        self.fc = nn.Linear(hidden_size, vocab_size)

    def forward(self, features, captions, lengths):
        inputs = torch.cat([features.unsqueeze(1), self.embed(captions)], dim=1)
        packed = pack_padded_sequence(inputs, lengths, batch_first=True)
        hiddens, _ = self.lstm(packed)
        return self.fc(hiddens.data)
