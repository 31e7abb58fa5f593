import torch.nn.functional as F

from vision.utils.checkpoint import Checkpointer


class Launcher:
    def __init__(self, model_dir, model, optimizer):
        self.model_dir = model_dir
        self.model = model
        self.optimizer = optimizer
        self.checkpointer = Checkpointer(self)

    def fit(self, loader, epochs):
        self.checkpointer.try_resume()
        for _ in range(epochs):
            for images, labels in loader:
                loss = F.cross_entropy(self.model(images.cuda()), labels.cuda())
                self.optimizer.zero_grad()
                loss.backward()
                self.optimizer.step()
            self.checkpointer.save()
