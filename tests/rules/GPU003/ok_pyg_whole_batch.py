import torch
import torch.nn.functional as F
from torch_geometric.loader import DataLoader
from torch_geometric.nn import GCNConv, global_mean_pool

device = torch.device("cuda")
train_loader = DataLoader(dataset[:800], batch_size=64, shuffle=True)


class GCN(torch.nn.Module):
    def __init__(self, hidden):
        super().__init__()
        self.conv1 = GCNConv(dataset.num_node_features, hidden)
        self.conv2 = GCNConv(hidden, hidden)
        self.lin = torch.nn.Linear(hidden, dataset.num_classes)

    def forward(self, x, edge_index, batch):
        x = self.conv2(self.conv1(x, edge_index).relu(), edge_index)
        return self.lin(global_mean_pool(x, batch))


model = GCN(64).to(device)
optimizer = torch.optim.Adam(model.parameters(), lr=0.01)
for data in train_loader:
    data.to(device)
    optimizer.zero_grad()
    loss = F.cross_entropy(model(data.x, data.edge_index, data.batch), data.y)
    loss.backward()
    optimizer.step()
