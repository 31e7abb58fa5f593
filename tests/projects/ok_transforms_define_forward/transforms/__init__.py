from .base import BaseTransform
from .undirected import ToUndirected

__all__ = ["BaseTransform", "ToUndirected"]
