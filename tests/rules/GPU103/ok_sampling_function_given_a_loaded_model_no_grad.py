# The same sampling helper, decorated with no_grad.
import sys

import torch

from vocab import decode, encode


@torch.no_grad()
def sample(network, prompt, length=200):
    state = network.initial_state(1)
    token = encode(prompt)[-1:].unsqueeze(0)
    text = prompt
    for _ in range(length):
        logits, state = network(token, state)
        token = torch.multinomial(logits.softmax(-1), 1)[0]
        text += decode(token)
    return text


if __name__ == "__main__":
    network = torch.load(sys.argv[1])
    print(sample(network, "Once"))
