# Translates the lines of a file greedily with the trained checkpoint. The
# script never trains and never turns grad off: every forward records a
# graph that nothing backpropagates.
import sys

import torch

from translator.checkpoints import load_model

BOS, EOS, MAX_LEN = 1, 2, 128


def greedy_decode(net, src):
    memory = net.encoder(src)  # expect: GPU103
    tokens = torch.full((1, 1), BOS, dtype=torch.long, device=src.device)
    for _ in range(MAX_LEN):
        hidden = net.decoder(tokens, memory)  # expect: GPU103
        logits = net.head(hidden[:, -1])  # expect: GPU103
        next_token = logits.argmax(dim=-1)
        tokens = torch.cat([tokens, next_token[:, None]], dim=1)
        if next_token.item() == EOS:
            break
    return tokens[0].tolist()


def main(checkpoint, source_file):
    net = load_model(checkpoint, "cuda")
    with open(source_file) as lines:
        for line in lines:
            src = torch.tensor([[int(t) for t in line.split()]], device="cuda")
            print(" ".join(map(str, greedy_decode(net, src))))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
