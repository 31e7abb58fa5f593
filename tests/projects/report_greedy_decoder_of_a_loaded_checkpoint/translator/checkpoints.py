# Saving and restoring the net between training and translation.
import torch

from translator.model import Translator


def save_model(net, path):
    torch.save({"net": net.state_dict()}, path)


def load_model(path, device):
    net = Translator().to(device)
    state = torch.load(path, map_location=device)
    net.load_state_dict(state["net"])
    return net
