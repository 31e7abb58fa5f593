import torch

from model import TinyGPT
from tokenizer import decode, encode

model = TinyGPT.from_pretrained("tinygpt.pt").cuda()
model.eval()
ids = torch.tensor([encode("Once upon a time")], device="cuda")

with torch.no_grad():
    for _ in range(256):
        logits = model(ids[:, -1024:])
        next_id = torch.multinomial(logits[:, -1].softmax(-1), 1)
        ids = torch.cat([ids, next_id], dim=1)
        torch.cuda.empty_cache()  # expect: GPU201
print(decode(ids[0].tolist()))
