# Sampling feeds the state back with grad on and no backward: the graph chains over max_length steps (reported with --pedantic: the root cause is the missing no_grad).
import torch


def sample(rnn, category_tensor, start_tensor, max_length=20):
    hidden = rnn.init_hidden()
    inp = start_tensor
    name = []
    for i in range(max_length):
        output, hidden = rnn(category_tensor, inp, hidden)  # pedantic: GPU102
        topi = output.topk(1)[1].item()
        if topi == 0:
            break
        name.append(topi)
        inp = torch.nn.functional.one_hot(torch.tensor([topi]), 59).float()
    return name
