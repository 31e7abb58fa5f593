import gymnasium as gym
import torch
from torch.distributions import Categorical

from model import ActorCritic

env = gym.make("CartPole-v1")
net = ActorCritic(obs_dim=4, n_actions=2).cuda()
optimizer = torch.optim.Adam(net.parameters(), lr=3e-4)
gamma = 0.99

for episode in range(1000):
    obs, _ = env.reset()
    optimizer.zero_grad()
    done = False
    while not done:
        state = torch.as_tensor(obs, dtype=torch.float32, device="cuda")
        logits, value = net(state)
        dist = Categorical(logits=logits)
        action = dist.sample()
        obs, reward, terminated, truncated, _ = env.step(action.item())
        done = terminated or truncated
        with torch.no_grad():
            _, next_value = net(torch.as_tensor(obs, dtype=torch.float32, device="cuda"))
            target = reward + gamma * next_value * (1.0 - float(terminated))
        advantage = target - value
        step_loss = -dist.log_prob(action) * advantage.detach() + advantage.pow(2)
        step_loss.backward()
    optimizer.step()
