# REINFORCE with several observers: every step keeps its log-prob (with its
# graph, on purpose) in a per-observer list, and the episode's end stacks
# them into the policy loss, backpropagates it and starts new lists.
import torch
from torch.distributions import Categorical

from policy import Policy


class Agent:
    def __init__(self, observers, batch=False):
        self.policy = Policy()
        self.optimizer = torch.optim.Adam(self.policy.parameters(), lr=1e-2)
        self.batch = batch
        self.observers = observers
        self.saved_log_probs = [] if batch else {k: [] for k in range(observers)}
        self.rewards = {k: [] for k in range(observers)}

    def select_action(self, ob_id, state):
        probs = self.policy(state)
        m = Categorical(probs)
        action = m.sample()
        self.saved_log_probs[ob_id].append(m.log_prob(action))
        return action.item()

    def report_reward(self, ob_id, reward):
        self.rewards[ob_id].append(reward)

    def finish_episode(self, gamma=0.99):
        returns, probs = [], []
        for ob_id in range(self.observers):
            probs.extend(self.saved_log_probs[ob_id])
            running = 0.0
            for reward in reversed(self.rewards[ob_id]):
                running = reward + gamma * running
                returns.insert(0, running)
        returns = torch.tensor(returns)
        returns = (returns - returns.mean()) / (returns.std() + 1e-8)
        policy_loss = (-torch.stack(probs) * returns).sum()
        self.optimizer.zero_grad()
        policy_loss.backward()
        self.optimizer.step()
        self.saved_log_probs = [] if self.batch else {k: [] for k in range(self.observers)}
        self.rewards = {k: [] for k in range(self.observers)}
