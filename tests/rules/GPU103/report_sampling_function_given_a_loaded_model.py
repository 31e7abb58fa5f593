# A sampling helper unrolls the network it is handed; the script hands it a pickled network it loaded.
import sys

import torch

from vocab import decode, encode


def sample(network, prompt, length=200):
    state = network.initial_state(1)
    tokens = encode(prompt).unsqueeze(0)
    for position in range(tokens.size(1) - 1):
        _, state = network(tokens[:, position], state)  # expect: GPU103
    token = tokens[:, -1]
    text = prompt
    for _ in range(length):
        logits, state = network(token, state)  # expect: GPU103
        token = torch.multinomial(logits.data.softmax(-1), 1)[0]
        text += decode(token)
    return text


if __name__ == "__main__":
    network = torch.load(sys.argv[1])
    print(sample(network, "Once"))
