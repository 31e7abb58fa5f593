# Epsilon-greedy rollouts with act() in train mode, then a TD update.
import gymnasium as gym
import torch
import torch.nn.functional as F

from agent import QAgent

env = gym.make("CartPole-v1")
agent = QAgent(env.observation_space.shape[0], env.action_space.n).cuda()
optimizer = torch.optim.Adam(agent.parameters(), lr=1e-3)

for episode in range(500):
    obs, _ = env.reset()
    done = False
    agent.train()
    while not done:
        state = torch.as_tensor(obs, device="cuda").unsqueeze(0)
        action = agent.act(state, epsilon=0.1)
        obs, reward, terminated, truncated, _ = env.step(action)
        done = terminated or truncated
        target = reward + 0.99 * (1 - done) * agent(torch.as_tensor(obs, device="cuda").unsqueeze(0)).max().detach()
        loss = F.smooth_l1_loss(agent(state)[0, action], torch.as_tensor(target, device="cuda"))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
torch.save(agent.state_dict(), "qagent.pt")
