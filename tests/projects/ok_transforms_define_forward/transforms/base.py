# Transforms call forward() from __call__, like modules, but they are no modules.
from abc import ABC, abstractmethod


class BaseTransform(ABC):
    def __call__(self, data):
        return self.forward(data)

    @abstractmethod
    def forward(self, data):
        ...
