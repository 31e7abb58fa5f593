import torch

embeddings = torch.load("embeddings.pt")
table = torch.tensor(embeddings["vectors"])
query = table[0]
query.cuda()  # expect: GPU003
table = table.cuda()
scores = table @ query
print(scores.topk(10))
