import os

import torch


def resume(model, optimizer, scaler, run_dir):
    local_rank = int(os.environ["LOCAL_RANK"])
    ckpt = torch.load(os.path.join(run_dir, "last.pt"))  # expect: GPU501
    model.load_state_dict(ckpt["model"])
    optimizer.load_state_dict(ckpt["optimizer"])
    scaler.load_state_dict(ckpt["scaler"])
    return ckpt["step"], local_rank


if __name__ == "__main__":
    from torch import nn

    net = nn.Linear(8, 8).cuda()
    resume(net, torch.optim.SGD(net.parameters(), lr=0.1), torch.cuda.amp.GradScaler(), "runs/last")
