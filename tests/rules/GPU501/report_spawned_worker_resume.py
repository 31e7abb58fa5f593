import torch
import torch.distributed as dist
import torch.multiprocessing as mp


def worker(rank, world_size, args, build):
    dist.init_process_group("nccl", init_method="tcp://127.0.0.1:23456", rank=rank, world_size=world_size)
    torch.cuda.set_device(rank)
    model = build().cuda(rank)
    start_epoch = 0
    if args.resume:
        ckpt = torch.load(args.resume)  # expect: GPU501
        model.load_state_dict(ckpt["model"])
        start_epoch = ckpt["epoch"] + 1
    return model, start_epoch


def save(model, epoch, path):
    torch.save({"model": model.state_dict(), "epoch": epoch}, path)


def launch(args, build):
    mp.spawn(worker, args=(torch.cuda.device_count(), args, build), nprocs=torch.cuda.device_count())
