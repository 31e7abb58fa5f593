import torch
from transformers import AutoModelForSeq2SeqLM, AutoTokenizer

tokenizer = AutoTokenizer.from_pretrained("t5-small")
model = AutoModelForSeq2SeqLM.from_pretrained("t5-small").to("cuda")
model.eval()


@torch.no_grad()
def summarize(texts, max_new_tokens=64):
    inputs = tokenizer(texts, return_tensors="pt", padding=True, truncation=True)
    inputs.to(model.device)
    generated = model.generate(**inputs, max_new_tokens=max_new_tokens)
    generated.cpu()  # expect: GPU003
    return tokenizer.batch_decode(generated, skip_special_tokens=True)
