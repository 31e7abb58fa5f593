import torch


def encode_passages(encoder, passages):
    encoder.eval()
    with torch.no_grad():
        return torch.cat([encoder(p) for p in passages])


def train(query_encoder, passage_encoder, loader, passages, optimizer, epochs, train_passages=False):
    for epoch in range(epochs):
        if train_passages:
            passage_encoder.train()
        else:
            passage_encoder.eval()
        query_encoder.train()
        for queries, positives in loader:
            scores = query_encoder(queries) @ passage_encoder(positives).T
            loss = torch.nn.functional.cross_entropy(scores, torch.arange(len(queries)))
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        index = encode_passages(passage_encoder, passages)  # hard negatives for the next epoch
        print(epoch, index.shape)
