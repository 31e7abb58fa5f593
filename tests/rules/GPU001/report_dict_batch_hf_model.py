import torch
from torch.utils.data import DataLoader
from transformers import AutoModelForCausalLM, DataCollatorForLanguageModeling

from data import tokenized_dataset, tokenizer

model = AutoModelForCausalLM.from_pretrained("gpt2").to("cuda")
collator = DataCollatorForLanguageModeling(tokenizer, mlm=False)
loader = DataLoader(tokenized_dataset, batch_size=8, collate_fn=collator, shuffle=True)
optimizer = torch.optim.AdamW(model.parameters(), lr=5e-5, weight_decay=0.01)

model.train()
for step, batch in enumerate(loader):
    batch = {k: v.to("cuda") for k, v in batch.items()}
    outputs = model(**batch)
    outputs.loss.backward()  # expect: GPU001
    torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    optimizer.step()
    if step % 50 == 0:
        print(f"step {step}: {outputs.loss.item():.4f}")
