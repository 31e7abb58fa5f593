# Domain-adaptation client: each local round walks the source and target loaders in step and trains on every pair.
# The discriminator loss of every step goes into a list that lives for the whole round: the loop trains, so its
# passes are steps whatever its iterable is named.
import torch
import torch.nn as nn


class Client:
    def __init__(self, source, target, rounds):
        self.source = source
        self.target = target
        self.rounds = rounds
        self.bce = nn.BCEWithLogitsLoss()

    def local_update(self, net, critic, opt, opt_critic):
        round_losses = []
        for r in range(self.rounds):
            critic_losses = []
            for i, (src, tgt) in enumerate(zip(self.source, self.target)):
                out, feat = net(src[0])
                _, feat_t = net(tgt[0])
                critic_loss = self.bce(critic(feat.detach()), torch.ones(len(feat), 1)) + self.bce(
                    critic(feat_t.detach()), torch.zeros(len(feat_t), 1)
                )
                opt_critic.zero_grad()
                critic_loss.backward()
                opt_critic.step()
                critic_losses.append(critic_loss)  # expect: GPU101
                loss = (out - src[1]).abs().mean()
                opt.zero_grad()
                loss.backward()
                opt.step()
            round_losses.append(sum(c.item() for c in critic_losses) / len(critic_losses))
        return round_losses
