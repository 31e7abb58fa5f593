import torch.nn as nn
from torch.utils.checkpoint import checkpoint


class Distiller(nn.Module):
    def __init__(self, teacher, student):
        super().__init__()
        self.teacher = teacher
        self.teacher.requires_grad_(False)
        self.student = student

    def forward(self, images):
        x = images.detach()
        target = checkpoint(self.teacher, x)
        return self.student(images), target
