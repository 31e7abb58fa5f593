import torch

from data import loader
from model import LlamaForCausalLM

model = LlamaForCausalLM.from_pretrained("tiny").cuda()
optimizer = torch.optim.AdamW(model.parameters(), lr=2e-5)

for batch in loader:
    with torch.autocast("cuda", dtype=torch.bfloat16):
        loss = model(**batch).loss
    loss.backward()
    torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    optimizer.step()
    optimizer.zero_grad(set_to_none=True)
