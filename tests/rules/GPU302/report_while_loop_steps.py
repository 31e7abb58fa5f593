import torch

from model import Policy
from buffer import ReplayBuffer

policy = Policy().cuda()
optimizer = torch.optim.Adam(policy.parameters(), lr=1e-4)
buffer = ReplayBuffer(100000)
step = 0

while step < 1_000_000:
    obs, actions, rewards = buffer.sample(256)
    obs = obs.cuda()
    exploration = torch.randn(256, 6).cuda() * 0.1  # expect: GPU302
    loss = ((policy(obs) + exploration - actions.cuda()) ** 2).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    step += 1
