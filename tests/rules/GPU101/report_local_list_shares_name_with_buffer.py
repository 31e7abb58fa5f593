# Two functions each bind their own `losses`: the episode update stacks
# its buffer into one loss, while the evaluation keeps every loss of its
# loop with its graph. The update's backward says nothing of the other list.
import torch
import torch.nn.functional as F


def update(policy, optimizer, episode):
    losses = []
    for state, action, ret in episode:
        log_prob = policy(state).log_softmax(-1)[action]
        losses.append(-log_prob * ret)
    optimizer.zero_grad()
    torch.stack(losses).sum().backward()
    optimizer.step()


def score(policy, batches):
    policy.eval()
    losses = []
    for states, targets in batches:
        logits = policy(states)  # expect: GPU103
        losses.append(F.cross_entropy(logits, targets))  # expect: GPU101
    return sum(losses) / len(losses)
