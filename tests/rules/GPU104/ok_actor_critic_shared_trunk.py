import torch


def update(agent, batches, actor_opt, critic_opt):
    for states, actions, returns in batches:
        values, log_probs = agent(states, actions)
        advantage = returns - values
        critic_loss = advantage.pow(2).mean()
        actor_loss = -(log_probs * advantage.detach()).mean()
        critic_opt.zero_grad()
        actor_opt.zero_grad()
        critic_loss.backward(retain_graph=True)
        actor_loss.backward()
        critic_opt.step()
        actor_opt.step()
