from torch import cat, no_grad

from data import val_loader
from model import load_pretrained

model = load_pretrained().cuda()
model.eval()
embeddings = []

with no_grad():
    for batch in val_loader:
        emb = model(batch["pixel_values"].cuda())
        embeddings.append(emb)

all_embeddings = cat(embeddings)
print(all_embeddings.shape)
