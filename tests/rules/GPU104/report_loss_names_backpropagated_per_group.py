"""A GAN model's update, group by group: each group backpropagates every
loss it names with retain_graph=True, then steps its optimizers in a
helper. The last loss of each group keeps its graph (stored on the model)
until the next iteration rebuilds it."""
import torch


class GanModel:
    def __init__(self, groups, scaler):
        self.groups = groups
        self.scaler = scaler

    def step_optimizers(self, names):
        for name in names:
            self.scaler.step(getattr(self, name))
            getattr(self, name).zero_grad()
        self.scaler.update()

    def optimize_parameters(self):
        for group in self.groups:
            for forward in group.forward_functions:
                getattr(self, forward)()
            for loss_name in group.loss_backward:
                loss = self.scaler.scale(getattr(self, loss_name)) / group.iter_size
                loss.backward(retain_graph=True)  # expect: GPU104
            self.step_optimizers(group.optimizers)
