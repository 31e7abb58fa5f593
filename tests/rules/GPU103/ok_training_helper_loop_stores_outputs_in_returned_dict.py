"""A helper of the training step runs the pose network once per source
frame and stores each output in the dict it returns; the step's loss is
computed from that dict and backpropagated."""
import torch
from torch import nn


class PoseNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.head = nn.Conv2d(6, 6, 1)

    def forward(self, x):
        out = self.head(x).mean((2, 3))
        return out[:, :3], out[:, 3:]


class Trainer:
    def __init__(self, depth, loader, frame_ids):
        self.models = {"depth": depth, "pose": PoseNet()}
        self.loader = loader
        self.frame_ids = frame_ids
        params = list(self.models["depth"].parameters()) + list(self.models["pose"].parameters())
        self.optimizer = torch.optim.Adam(params)

    def run_epoch(self):
        for inputs in self.loader:
            outputs = {"depth": self.models["depth"](inputs["color", 0])}
            outputs.update(self.predict_poses(inputs))
            loss = sum(value.abs().mean() for value in outputs.values())
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()

    def predict_poses(self, inputs):
        outputs = {}
        for f_i in self.frame_ids[1:]:
            pose_inputs = torch.cat([inputs["color", f_i], inputs["color", 0]], 1)
            axisangle, translation = self.models["pose"](pose_inputs)
            outputs[("axisangle", f_i)] = axisangle
            outputs[("translation", f_i)] = translation
        return outputs
