"""REINFORCE with a running-reward stopping rule on CartPole."""
import argparse
from itertools import count

import gymnasium as gym
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim
from torch.distributions import Categorical

parser = argparse.ArgumentParser(description="PyTorch REINFORCE")
parser.add_argument("--gamma", type=float, default=0.99)
parser.add_argument("--seed", type=int, default=543)
parser.add_argument("--log-interval", type=int, default=10)
parser.add_argument("--max-episodes", type=int, default=2000)
args = parser.parse_args()

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
env = gym.make("CartPole-v1")
torch.manual_seed(args.seed)
eps = np.finfo(np.float32).eps.item()


class Policy(nn.Module):
    def __init__(self, obs_dim=4, n_actions=2, hidden=128):
        super().__init__()
        self.affine1 = nn.Linear(obs_dim, hidden)
        self.dropout = nn.Dropout(p=0.6)
        self.affine2 = nn.Linear(hidden, n_actions)

    def forward(self, x):
        x = F.relu(self.dropout(self.affine1(x)))
        return F.softmax(self.affine2(x), dim=1)


class Agent:
    def __init__(self, policy, lr=1e-2, gamma=0.99):
        self.policy = policy
        self.optimizer = optim.Adam(policy.parameters(), lr=lr)
        self.gamma = gamma
        self.saved_log_probs = []
        self.rewards = []

    def select_action(self, state):
        state = torch.from_numpy(state).float().unsqueeze(0).to(device)
        probs = self.policy(state)
        m = Categorical(probs)
        action = m.sample()
        self.saved_log_probs.append(m.log_prob(action))
        return action.item()

    def finish_episode(self):
        R = 0.0
        returns = []
        for r in self.rewards[::-1]:
            R = r + self.gamma * R
            returns.insert(0, R)
        returns = torch.tensor(returns, device=device)
        returns = (returns - returns.mean()) / (returns.std() + eps)
        policy_loss = [-log_prob * R for log_prob, R in zip(self.saved_log_probs, returns)]
        self.optimizer.zero_grad()
        loss = torch.cat(policy_loss).sum()
        loss.backward()
        self.optimizer.step()
        del self.saved_log_probs[:]
        self.rewards.clear()
        return loss.item()


def main():
    agent = Agent(Policy().to(device), gamma=args.gamma)
    running_reward = 10.0
    for i_episode in count(1):
        state, _ = env.reset(seed=args.seed + i_episode)
        ep_reward = 0.0
        for t in range(1, 10000):
            action = agent.select_action(state)
            state, reward, terminated, truncated, _ = env.step(action)
            agent.rewards.append(reward)
            ep_reward += reward
            if terminated or truncated:
                break

        running_reward = 0.05 * ep_reward + 0.95 * running_reward
        loss = agent.finish_episode()
        if i_episode % args.log_interval == 0:
            print(f"Episode {i_episode}\tLast reward: {ep_reward:.2f}\tAverage reward: {running_reward:.2f}"
                  f"\tloss: {loss:.3f}")
        if running_reward > env.spec.reward_threshold:
            print(f"Solved! Running reward is now {running_reward:.2f} and the last episode runs to {t} time steps!")
            break
        if i_episode >= args.max_episodes:
            break

    torch.save(agent.policy.state_dict(), "reinforce_policy.pt")


if __name__ == "__main__":
    main()
