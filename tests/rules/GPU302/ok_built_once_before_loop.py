import torch

from model import GPT
from data import batches

device = "cuda"
model = GPT().to(device)
optimizer = torch.optim.AdamW(model.parameters(), lr=3e-4)
positions = torch.arange(1024).to(device)
causal = torch.ones(1024, 1024).tril().cuda()

for tokens in batches():
    tokens = tokens.to(device)
    logits = model(tokens, positions[: tokens.size(1)], causal)
    loss = torch.nn.functional.cross_entropy(logits.flatten(0, 1), tokens.flatten())
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
