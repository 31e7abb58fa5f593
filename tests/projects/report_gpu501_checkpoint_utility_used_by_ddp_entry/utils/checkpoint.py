import torch


def save_checkpoint(path, model, optimizer, epoch):
    torch.save({"model": model.state_dict(), "optimizer": optimizer.state_dict(), "epoch": epoch}, path)


def restore_checkpoint(path, model, optimizer):
    checkpoint = torch.load(path)  # expect: GPU501
    model.load_state_dict(checkpoint["model"])
    optimizer.load_state_dict(checkpoint["optimizer"])
    return checkpoint["epoch"] + 1
