# Plays episodes with the trained agent in eval mode; every act() records
# a graph because grad is on.
import gymnasium as gym
import torch

from agent import QAgent

env = gym.make("CartPole-v1")
agent = QAgent(env.observation_space.shape[0], env.action_space.n).cuda()
agent.load_state_dict(torch.load("qagent.pt", map_location="cuda"))
agent.eval()

for episode in range(20):
    obs, _ = env.reset()
    done, score = False, 0.0
    while not done:
        action = agent.act(torch.as_tensor(obs, device="cuda").unsqueeze(0))  # expect: GPU103
        obs, reward, terminated, truncated, _ = env.step(action)
        score += reward
        done = terminated or truncated
    print(episode, score)
