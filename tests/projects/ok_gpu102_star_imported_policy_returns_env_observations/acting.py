import numpy as np
import torch


def act_greedy_policy(observation, q_network, simulator, memory):
    with torch.no_grad():
        scores = q_network(torch.as_tensor(observation, dtype=torch.float32))
        choice = scores.argmax(dim=1).numpy()
    following, gains, finished = simulator.step(choice)
    memory.append((observation, choice, gains, following, finished))
    observation = following
    return np.mean(gains), observation
