import torch as T
from tqdm.auto import tqdm

from data import get_dataloader
from model import BertClassifier

device = T.device("cuda")
model = BertClassifier(num_labels=5).to(device)
optimizer = T.optim.AdamW(model.parameters(), lr=2e-5)
loader = get_dataloader("train", batch_size=16)

for epoch in range(4):
    progress = tqdm(loader, desc=f"epoch {epoch}")
    for batch in progress:
        batch = {k: v.to(device) for k, v in batch.items()}
        loss = model(**batch).loss
        loss.backward()
        T.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        model.zero_grad(set_to_none=True)  # expect: GPU002
        optimizer.step()
        progress.set_postfix(loss=loss.item())
