import torch
import torch.nn as nn
from torch.utils.checkpoint import checkpoint

vectors = torch.load("glove.pt", map_location="cpu")
embedding = nn.Embedding.from_pretrained(vectors).cuda()
encoder = nn.LSTM(vectors.size(1), 256, num_layers=2, batch_first=True).cuda()
head = nn.Linear(256, 2).cuda()
optimizer = torch.optim.Adam(list(encoder.parameters()) + list(head.parameters()), lr=1e-3)

for tokens, labels in torch.load("batches.pt"):
    tokens, labels = tokens.cuda(), labels.cuda()
    embedded = embedding(tokens)
    output, _ = checkpoint(encoder, embedded)  # expect: GPU005
    loss = nn.functional.cross_entropy(head(output[:, -1]), labels)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
