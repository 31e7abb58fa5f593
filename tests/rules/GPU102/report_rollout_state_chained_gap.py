# A rollout chains the recurrent state through the whole episode with grad on; updates use a detached copy.
import torch
import torch.nn as nn

lstm = nn.LSTM(4, 8)
head = nn.Linear(8, 2)
optimizer = torch.optim.Adam(list(lstm.parameters()) + list(head.parameters()))


def update(first_hidden, states):
    out, _ = lstm(states, (first_hidden[0].detach(), first_hidden[1].detach()))
    loss = head(out).sum()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()


for episode in range(100):
    hidden = (torch.zeros(1, 1, 8), torch.zeros(1, 1, 8))
    done = False
    while not done:
        first, states = hidden, []
        for t in range(20):
            s = torch.randn(1, 1, 4)
            x, hidden = lstm(s, hidden)  # gap: GPU102
            states.append(s)
            done = bool(torch.rand(()) < 0.01)
        update(first, torch.cat(states))
