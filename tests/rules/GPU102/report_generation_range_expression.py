# Generation over range(max_length - len(seed)) carries the state with grad on.
import torch


def generate_sample(model, seed, max_length):
    model.eval()
    sequence = list(seed)
    hidden = model.initHidden(1)
    for _ in range(max_length - len(seed)):
        x = torch.LongTensor([sequence[-1]])
        probs, hidden = model(x, hidden)  # expect: GPU103  # pedantic: GPU102
        sequence.append(int(probs.argmax()))
    return sequence
