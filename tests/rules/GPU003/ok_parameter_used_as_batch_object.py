import torch


def evaluate_graphs(model, data, device):
    data.to(device)
    print(data.num_nodes, data.size(), data.is_cuda)
    with torch.no_grad():
        return model(data.x, data.edge_index).argmax(dim=-1)


def encode(model, encoding, device):
    encoding.to(device)
    print(encoding.keys(), encoding["input_ids"].shape)
    with torch.no_grad():
        return model(**encoding).last_hidden_state
