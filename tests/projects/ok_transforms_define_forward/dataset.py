# A dataset applies a transform to every graph in a loop: the transform defines forward() but its base is no
# nn.Module, so its calls are no forwards and the graphs it returns carry no autograd history.
import torch

from transforms import ToUndirected


class GraphDataset:
    def __init__(self, graphs, undirected=True):
        self.graphs = graphs
        self.undirected = undirected

    def process(self):
        processed = []
        if self.undirected:
            transform = ToUndirected()
            for graph in self.graphs:
                processed.append(transform(graph))
        torch.save(processed, "processed.pt")
        return processed
