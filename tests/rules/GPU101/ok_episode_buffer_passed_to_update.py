# The episode loop fills its own buffer of log-probabilities and hands it
# to the update, which stacks it into the loss: the graph is kept on
# purpose until that backward.
import torch


def finish(losses, optimizer):
    optimizer.zero_grad()
    torch.stack(losses).sum().backward()
    optimizer.step()


def run(policy, env, optimizer, episodes=100):
    for episode in range(episodes):
        losses = []
        state, done = env.reset(), False
        while not done:
            probs = policy(torch.as_tensor(state)).softmax(-1)
            action = torch.multinomial(probs, 1).item()
            state, reward, done, _ = env.step(action)
            losses.append(-probs[action].log() * reward)
        finish(losses, optimizer)
