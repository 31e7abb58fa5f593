import torch
from torch.nn.utils import clip_grad_norm_
from tqdm import trange

from env import make_batch
from model import PolicyValueNet

net = PolicyValueNet().cuda()
optimizer = torch.optim.Adam(net.parameters(), lr=2e-4)

for it in trange(5000):
    states, target_pi, target_v = make_batch(256)
    log_pi, v = net(states.cuda())
    value_loss = torch.mean((target_v.cuda() - v.squeeze(-1)) ** 2)
    policy_loss = -torch.mean(torch.sum(target_pi.cuda() * log_pi, dim=1))
    loss = value_loss + policy_loss
    loss.backward()  # expect: GPU001
    clip_grad_norm_(net.parameters(), 1.0)
    optimizer.step()
