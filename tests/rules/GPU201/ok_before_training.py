import torch
import torch.nn.functional as F

from data import loader
from model import build_large_model, load_teacher_logits

teacher_logits = load_teacher_logits("cache.pt")
torch.cuda.empty_cache()
torch.cuda.reset_peak_memory_stats()

model = build_large_model().cuda()
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
for x, y in loader:
    optimizer.zero_grad()
    loss = F.cross_entropy(model(x.cuda()), y.cuda())
    loss.backward()
    optimizer.step()
print("peak MiB", torch.cuda.max_memory_allocated() / 2**20)
