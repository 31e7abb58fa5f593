# Saving and restoring the model between training and translation.
import torch

from translator.model import Translator


def save_model(model, path):
    torch.save({"model": model.state_dict()}, path)


def load_model(path, device):
    model = Translator().to(device)
    state = torch.load(path, map_location=device)
    model.load_state_dict(state["model"])
    return model
