import torch
from transformers import AutoModelForCausalLM, AutoTokenizer

tokenizer = AutoTokenizer.from_pretrained("gpt2")
model = AutoModelForCausalLM.from_pretrained("gpt2").cuda()
model.eval()

texts = open("eval.txt").read().splitlines()
nll, n_tokens = 0.0, 0
for text in texts:
    enc = tokenizer(text, return_tensors="pt").to("cuda")
    out = model(input_ids=enc.input_ids, attention_mask=enc.attention_mask, labels=enc.input_ids)  # expect: GPU103
    nll += out.loss.item() * enc.input_ids.size(1)
    n_tokens += enc.input_ids.size(1)
print("perplexity", torch.exp(torch.tensor(nll / n_tokens)).item())
