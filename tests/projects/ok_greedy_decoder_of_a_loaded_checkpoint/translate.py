# Translates the lines of a file greedily with the trained checkpoint,
# under inference mode: no forward records a graph.
import sys

import torch

from translator.checkpoints import load_model

BOS, EOS, MAX_LEN = 1, 2, 128


@torch.inference_mode()
def greedy_decode(net, src):
    memory = net.encoder(src)
    tokens = torch.full((1, 1), BOS, dtype=torch.long, device=src.device)
    for _ in range(MAX_LEN):
        hidden = net.decoder(tokens, memory)
        logits = net.head(hidden[:, -1])
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
