import numpy as np
import torch

from env import make_env
from agent import Policy

env = make_env()
policy = Policy().cuda()
optimizer = torch.optim.Adam(policy.parameters(), lr=3e-4)
obs = env.reset()

for step in range(100000):
    state = torch.from_numpy(np.asarray(obs, dtype=np.float32)).cuda()
    logits = policy(state)
    action = torch.distributions.Categorical(logits=logits).sample()
    obs, reward, done, _ = env.step(action.item())
    returns = torch.tensor([reward], dtype=torch.float32).to("cuda")
    loss = -(logits.log_softmax(-1)[action] * returns).sum()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    if done:
        obs = env.reset()
