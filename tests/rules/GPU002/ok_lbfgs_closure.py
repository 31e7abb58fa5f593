import torch

from data import load_points
from model import PINN, physics_residual

model = PINN(layers=[2, 64, 64, 64, 1]).cuda()
optimizer = torch.optim.LBFGS(model.parameters(), lr=0.5, max_iter=50, line_search_fn="strong_wolfe")
points, boundary, boundary_values = (t.cuda() for t in load_points())

for outer in range(20):
    def closure():
        optimizer.zero_grad()
        residual = physics_residual(model, points)
        loss = residual.pow(2).mean() + (model(boundary) - boundary_values).pow(2).mean()
        loss.backward()
        return loss

    loss = optimizer.step(closure)
    print(outer, loss.item())
