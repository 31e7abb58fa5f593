import torch

from acting import *


def learn(q_network, simulator, memory, optimizer, draw, steps):
    observation = simulator.reset()
    for step in range(steps):
        gain, observation = act_greedy_policy(observation, q_network, simulator, memory)
        states, targets = draw(memory)
        loss = torch.nn.functional.smooth_l1_loss(q_network(states), targets)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
