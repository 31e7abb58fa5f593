import torch

results = []
for seed in range(10):
    torch.manual_seed(seed)
    sample = torch.randn(1000)
    results.append(sample.mean().item())
print(sum(results) / len(results))
