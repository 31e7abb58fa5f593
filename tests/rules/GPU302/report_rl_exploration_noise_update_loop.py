import torch
import torch.nn.functional as F

from agent import Actor, Critic
from buffer import ReplayBuffer

device = torch.device("cuda")
actor, critic = Actor(17, 6).to(device), Critic(17, 6).to(device)
actor_opt = torch.optim.Adam(actor.parameters(), lr=3e-4)
critic_opt = torch.optim.Adam(critic.parameters(), lr=3e-4)
buffer = ReplayBuffer(1_000_000)

for update in range(100_000):
    state, action, reward, next_state, done = buffer.sample(256, device)
    with torch.no_grad():
        smoothing = torch.randn(256, 6).to(device).mul(0.2).clamp(-0.5, 0.5)  # expect: GPU302
        next_action = (actor(next_state) + smoothing).clamp(-1.0, 1.0)
        target = reward + 0.99 * (1 - done) * critic(next_state, next_action)
    critic_loss = F.mse_loss(critic(state, action), target)
    critic_opt.zero_grad()
    critic_loss.backward()
    critic_opt.step()
    actor_loss = -critic(state, actor(state)).mean()
    actor_opt.zero_grad()
    actor_loss.backward()
    actor_opt.step()
