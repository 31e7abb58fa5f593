# A training strategy around an engine that owns its optimizer: the engine's
# step() applies the update and clears the gradients itself.
import torch.nn as nn


class EngineStrategy:
    def __init__(self, engine_factory):
        self.engine_factory = engine_factory

    def prepare(self, model, optimizer):
        return self.engine_factory(model=model, optimizer=optimizer)

    def backward(self, loss, model: nn.Module, _optimizer):
        model.backward(loss)

    def optimizer_step(self, _optimizer, model: nn.Module, _scheduler, name="model"):
        model.step()
