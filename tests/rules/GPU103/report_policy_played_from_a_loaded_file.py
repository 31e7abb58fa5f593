# A play script loads a trained policy and runs episodes with grad on: the environment's step trains nothing.
import gym
import torch

env = gym.make("CartPole-v1")
policy = torch.load("policy.pt")
for episode in range(10):
    observation = env.reset()
    done = False
    while not done:
        logits = policy(torch.as_tensor(observation, dtype=torch.float32))  # expect: GPU103
        observation, reward, done, info = env.step(int(logits.argmax()))
