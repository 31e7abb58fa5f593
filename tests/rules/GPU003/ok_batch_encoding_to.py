import torch
from transformers import AutoModelForCausalLM, AutoTokenizer

device = "cuda"
tokenizer = AutoTokenizer.from_pretrained("gpt2")
model = AutoModelForCausalLM.from_pretrained("gpt2")
model.to(device)
model.eval()

prompts = ["The capital of France is", "PyTorch is"]
inputs = tokenizer(prompts, return_tensors="pt", padding=True)
inputs.to(device)
with torch.no_grad():
    generated = model.generate(**inputs, max_new_tokens=20)
print(tokenizer.batch_decode(generated, skip_special_tokens=True))

for batch in eval_dataloader:
    batch.to(device)
    with torch.no_grad():
        outputs = model(**batch)
