# Captions precomputed image features greedily with the saved decoder. The
# decoder comes out of the checkpoint whole, so this file never sees its
# class; its initial state runs two linear layers with grad on.
import sys

import torch

checkpoint = torch.load(sys.argv[1])
decoder = checkpoint["decoder"].cuda()
decoder.eval()

for path in sys.argv[2:]:
    features = torch.load(path).cuda()
    h, c = decoder.init_hidden_state(features)  # expect: GPU103
    word = torch.ones(features.size(0), dtype=torch.long, device="cuda")
    caption = []
    for _ in range(20):
        embedded = decoder.embedding(word)  # expect: GPU103
        h, c = decoder.cell(embedded, (h, c))  # expect: GPU103
        word = decoder.fc(h).argmax(dim=-1)  # expect: GPU103
        caption.append(word.tolist())
    print(path, caption)
