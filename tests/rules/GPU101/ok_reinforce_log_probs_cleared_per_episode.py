import gymnasium as gym
import torch
from torch.distributions import Categorical

from model import Policy

env = gym.make("CartPole-v1")
policy = Policy().cuda()
optimizer = torch.optim.Adam(policy.parameters(), lr=1e-2)
gamma = 0.99

for episode in range(500):
    state, _ = env.reset()
    log_probs, rewards = [], []
    for t in range(1000):
        probs = policy(torch.as_tensor(state, device="cuda").float().unsqueeze(0))
        m = Categorical(probs)
        action = m.sample()
        log_probs.append(m.log_prob(action))
        state, reward, terminated, truncated, _ = env.step(action.item())
        rewards.append(reward)
        if terminated or truncated:
            break
    returns, R = [], 0.0
    for r in reversed(rewards):
        R = r + gamma * R
        returns.insert(0, R)
    returns = torch.tensor(returns, device="cuda")
    returns = (returns - returns.mean()) / (returns.std() + 1e-8)
    loss = torch.cat([-lp * g for lp, g in zip(log_probs, returns)]).sum()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
