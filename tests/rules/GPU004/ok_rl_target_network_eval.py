import torch


def sync_target(target, online):
    target.load_state_dict(online.state_dict())
    target.eval()


def train(online, target, buffer, optimizer, gamma, steps, sync_every):
    online.train()
    for step in range(steps):
        s, a, r, s2, done = buffer.sample()
        with torch.no_grad():
            y = r + gamma * (1 - done) * target(s2).max(1).values
        q = online(s).gather(1, a.unsqueeze(1)).squeeze(1)
        optimizer.zero_grad()
        torch.nn.functional.smooth_l1_loss(q, y).backward()
        optimizer.step()
        if step % sync_every == 0:
            sync_target(target, online)
