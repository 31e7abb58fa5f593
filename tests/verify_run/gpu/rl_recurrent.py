"""REINFORCE with a recurrent (GRU) policy on a batch of synthetic
memory tasks run on the device: each episode shows a cue for the first
steps, then the agent must pick the cued action at the end. Every few
updates a greedy evaluation plays episodes. Pitfalls: the evaluation
rollout feeds the hidden state back with grad on, and the episode returns
are kept as tensors with their graph."""
import sys

import torch
import torch.nn as nn
import torch.nn.functional as F

device = "cuda" if torch.cuda.is_available() else "cpu"
envs, hidden, actions, horizon = (512, 1024, 8, 24) if device == "cuda" else (16, 32, 8, 12)
torch.manual_seed(0)


class CueEnv:
    """`envs` episodes at once: a one-hot cue in the first three steps,
    noise afterwards; reward 1 for the cued action at the last step."""

    def __init__(self):
        self.t = 0
        self.cue = None

    def reset(self):
        self.t = 0
        self.cue = torch.randint(0, actions, (envs,), device=device)
        return self.observe()

    def observe(self):
        obs = 0.1 * torch.randn(envs, actions + 1, device=device)
        if self.t < 3:
            obs[:, :actions] += F.one_hot(self.cue, actions).float()
        obs[:, actions] = self.t / horizon
        return obs

    def step(self, action):
        self.t += 1
        done = self.t == horizon
        reward = (action == self.cue).float() if done else torch.zeros(envs, device=device)
        return self.observe(), reward, done


class Policy(nn.Module):
    def __init__(self):
        super().__init__()
        self.encode = nn.Sequential(nn.Linear(actions + 1, hidden), nn.Tanh())
        self.cell = nn.GRUCell(hidden, hidden)
        self.logits = nn.Linear(hidden, actions)

    def forward(self, obs, state):
        state = self.cell(self.encode(obs), state)
        return self.logits(state), state

    def initial(self):
        return torch.zeros(envs, hidden, device=device)


def evaluate(policy, env):
    """Greedy play of one batch of episodes; the mean final reward."""
    policy.eval()
    obs, state, score = env.reset(), policy.initial(), 0.0
    for t in range(horizon):
        logits, state = policy(obs, state)
        obs, reward, done = env.step(logits.argmax(dim=1))
        score += reward.mean().item()
    policy.train()
    return score


policy, env = Policy().to(device), CueEnv()
optimizer = torch.optim.Adam(policy.parameters(), lr=1e-3)
baseline = 0.0
returns_log = []
for update in range(500):
    obs, state = env.reset(), policy.initial()
    log_probs, rewards = [], []
    for t in range(horizon):
        logits, state = policy(obs, state)
        dist = torch.distributions.Categorical(logits=logits)
        action = dist.sample()
        obs, reward, done = env.step(action)
        log_probs.append(dist.log_prob(action))
        rewards.append(reward)
    episode_return = torch.stack(rewards).sum(dim=0)
    loss = -((episode_return - baseline) * torch.stack(log_probs).sum(dim=0)).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    baseline = 0.9 * baseline + 0.1 * episode_return.mean().item()
    returns_log.append(loss)
    if update % 10 == 0:
        print("update %d return %.3f greedy %.3f" % (update, baseline, evaluate(policy, env)), file=sys.stderr)
