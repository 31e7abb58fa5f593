import torch

from ranking.model import DualEncoder, load_best


def validate(ranker, loader):
    ranker.model.eval()
    with torch.no_grad():
        return sum(ranker(q, d)[1].mean().item() for q, d in loader)


def main(args, train_loader, dev_loader):
    ranker = DualEncoder(args.dim)
    model = ranker.model
    optimizer = torch.optim.AdamW(model.parameters(), lr=args.lr)
    model.train()
    for epoch in range(args.epochs):
        for queries, docs in train_loader:
            loss, _ = ranker(queries, docs)
            loss.backward()
            optimizer.step()
            optimizer.zero_grad()
        print(validate(ranker, dev_loader))  # expect: GPU004
    ranker = load_best(args.output_dir)
    return ranker
