# A sampling script takes the decoder out of a checkpoint dict and unrolls it step by step with grad on.
import torch

checkpoint = torch.load("checkpoint.pth.tar")
decoder = checkpoint["decoder"].cuda()

word = torch.zeros(1, dtype=torch.long).cuda()
state = None
words = []
for step in range(50):
    scores, state = decoder(word, state)  # expect: GPU103
    word = scores.argmax(-1)
    words.append(word.item())
print(words)
