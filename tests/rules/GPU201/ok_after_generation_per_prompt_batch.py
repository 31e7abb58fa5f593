import torch
from transformers import AutoModelForCausalLM, AutoTokenizer

tokenizer = AutoTokenizer.from_pretrained("gpt2-large")
model = AutoModelForCausalLM.from_pretrained("gpt2-large", torch_dtype=torch.float16).cuda()
model.eval()
prompts = open("prompts.txt").read().splitlines()

results = []
for i in range(0, len(prompts), 16):
    batch = tokenizer(prompts[i:i + 16], return_tensors="pt", padding=True).to("cuda")
    out = model.generate(**batch, max_new_tokens=200, do_sample=True, top_p=0.9)
    results.extend(tokenizer.batch_decode(out, skip_special_tokens=True))
torch.cuda.empty_cache()
print(len(results))
