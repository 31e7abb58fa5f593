import torch


def dev_loss(model, batches):
    model.eval()
    with torch.no_grad():
        return sum(model(**b).loss.item() for b in batches) / len(batches)


def fit(model, loader, dev_batches, optimizer, epochs, log_every=200):
    best = float("inf")
    model.train()
    for epoch in range(epochs):
        for step, batch in enumerate(loader):
            loss = model(**batch).loss
            loss.backward()
            optimizer.step()
            optimizer.zero_grad()
            if step % log_every == 0:
                current = dev_loss(model, dev_batches)  # expect: GPU004
                if current < best:
                    best = current
                    torch.save(model.state_dict(), "best.pt")
                    model.train()
