import torch
import torch.distributed as dist


def resume(model, optimizer, path, local_rank):
    dist.init_process_group("nccl")
    torch.cuda.set_device(local_rank)
    checkpoint = torch.load(path, map_location="cpu")
    model.load_state_dict(checkpoint["model"])
    optimizer.load_state_dict(torch.load(path + ".optim", weights_only=True, map_location="cpu"))


def save(model, path):
    torch.save(model.state_dict(), path)


if __name__ == "__main__":
    resume(None, None, "last.pt", 0)
