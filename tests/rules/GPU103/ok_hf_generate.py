from transformers import AutoModelForSeq2SeqLM, AutoTokenizer

from data import test_articles

tokenizer = AutoTokenizer.from_pretrained("facebook/bart-large-cnn")
model = AutoModelForSeq2SeqLM.from_pretrained("facebook/bart-large-cnn").to("cuda")
model.eval()

summaries = []
for i in range(0, len(test_articles), 8):
    batch = tokenizer(test_articles[i:i + 8], truncation=True, padding=True, return_tensors="pt").to("cuda")
    generated = model.generate(**batch, num_beams=4, max_new_tokens=142)
    summaries.extend(tokenizer.batch_decode(generated, skip_special_tokens=True))
print(summaries[0])
