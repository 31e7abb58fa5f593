import torch


def evaluate(ranker, loader, device):
    ranker.encoder.eval()
    hits = 0
    with torch.no_grad():
        for queries, docs in loader:
            scores = ranker(queries.to(device), docs.to(device))
            hits += (scores.argmax(1) == 0).sum().item()
    return hits


def main(ranker, train_loader, dev_loader, optimizer, epochs, device, eval_interval=1000):
    encoder = ranker.encoder
    encoder.train()
    for epoch in range(epochs):
        for step, (queries, docs) in enumerate(train_loader):
            loss = ranker(queries.to(device), docs.to(device)).mean()
            loss.backward()
            optimizer.step()
            optimizer.zero_grad()
            if (step + 1) % eval_interval == 0:
                evaluate(ranker, dev_loader, device)
                encoder.train()
        print(epoch, evaluate(ranker, dev_loader, device))  # expect: GPU004
        torch.save(encoder.state_dict(), f"epoch{epoch}.pt")
