# A test episode steps the policy with grad on.
import gym
import torch
from torch.distributions import Categorical


def test(global_model, episodes=400):
    env = gym.make('CartPole-v1')
    score = 0.0
    for n_epi in range(episodes):
        done = False
        s = env.reset()
        while not done:
            prob = global_model.pi(torch.from_numpy(s).float())  # gap: GPU103
            a = Categorical(prob).sample().item()
            s, r, done, info = env.step(a)
            score += r
    return score / episodes
