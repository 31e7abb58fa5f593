# accelerator.reduce() of a detached loss keeps no graph.
import torch
from accelerate import Accelerator
from transformers import AutoModel

accelerator = Accelerator()
model = AutoModel.from_pretrained("bert-base-uncased")
optimizer = torch.optim.AdamW(model.parameters(), lr=2e-5)
model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
step_losses = []
for batch in loader:
    outputs = model(**batch)
    loss = outputs.last_hidden_state.pow(2).mean()
    accelerator.backward(loss)
    optimizer.step()
    optimizer.zero_grad()
    step_losses.append(accelerator.reduce(loss.detach(), reduction="mean"))
print(torch.stack(step_losses).mean().item())
