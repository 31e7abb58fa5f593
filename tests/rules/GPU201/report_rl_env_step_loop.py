import gymnasium as gym
import torch

from model import QNetwork

env = gym.make("LunarLander-v2")
q_net = QNetwork(8, 4).cuda()
q_net.load_state_dict(torch.load("dqn.pt", map_location="cuda"))
q_net.eval()

for episode in range(10):
    obs, _ = env.reset()
    done, score = False, 0.0
    while not done:
        with torch.no_grad():
            q_values = q_net(torch.as_tensor(obs, device="cuda").unsqueeze(0))
        obs, reward, terminated, truncated, _ = env.step(q_values.argmax(1).item())
        done = terminated or truncated
        score += reward
        torch.cuda.empty_cache()  # expect: GPU201
    print(episode, score)
