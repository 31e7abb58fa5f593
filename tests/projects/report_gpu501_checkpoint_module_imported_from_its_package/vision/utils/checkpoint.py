"""Saves the launcher's model and optimizer state as they are on the GPU,
and resumes from it in every process: each process puts the optimizer's
state back on the GPU that saved it."""
import os

import torch


class Checkpointer:
    def __init__(self, launcher):
        self.launcher = launcher

    def path(self):
        return os.path.join(self.launcher.model_dir, "last.pth")

    def save(self):
        state = {"model": self.launcher.model.state_dict(), "optimizer": self.launcher.optimizer.state_dict()}
        torch.save(state, self.path())

    @staticmethod
    def load(path):
        return torch.load(path)  # expect: GPU501

    def try_resume(self):
        if not os.path.exists(self.path()):
            return
        state = self.load(self.path())
        self.launcher.model.load_state_dict(state["model"])
        self.launcher.optimizer.load_state_dict(state["optimizer"])
