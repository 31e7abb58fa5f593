# Captions precomputed image features greedily with the saved decoder,
# under no_grad: neither the initial state nor the decoding steps record a
# graph.
import sys

import torch

checkpoint = torch.load(sys.argv[1])
decoder = checkpoint["decoder"].cuda()
decoder.eval()

with torch.no_grad():
    for path in sys.argv[2:]:
        features = torch.load(path).cuda()
        h, c = decoder.init_hidden_state(features)
        word = torch.ones(features.size(0), dtype=torch.long, device="cuda")
        caption = []
        for _ in range(20):
            embedded = decoder.embedding(word)
            h, c = decoder.cell(embedded, (h, c))
            word = decoder.fc(h).argmax(dim=-1)
            caption.append(word.tolist())
        print(path, caption)
