import torch
import torch.nn.functional as F

from data import episode_loader
from model import RecurrentWorldModel

model = RecurrentWorldModel(obs_dim=64, act_dim=6, hidden=512).cuda()
optimizer = torch.optim.Adam(model.parameters(), lr=3e-4)

belief = model.initial_state(batch_size=50)
for batch in episode_loader:
    obs, actions = batch["obs"].cuda(), batch["actions"].cuda()
    optimizer.zero_grad()
    pred_obs, belief = model(obs, actions, belief)  # expect: GPU102
    loss = F.mse_loss(pred_obs[:, :-1], obs[:, 1:])
    loss.backward()
    optimizer.step()
