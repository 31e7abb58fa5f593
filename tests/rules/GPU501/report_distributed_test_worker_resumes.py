"""A test whose workers start a process group and each reload a checkpoint
saved from the GPU: every worker puts it on GPU 0."""
import torch
import torch.distributed as dist
import torch.multiprocessing as mp
from torch.nn.parallel import DistributedDataParallel


def _resume_worker(rank, world_size, path):
    dist.init_process_group("nccl", init_method="tcp://127.0.0.1:29512", rank=rank, world_size=world_size)
    torch.cuda.set_device(rank)
    model = torch.nn.Linear(4, 4).cuda()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    state = torch.load(path)  # expect: GPU501
    model.load_state_dict(state["model"])
    optimizer.load_state_dict(state["optimizer"])
    DistributedDataParallel(model, device_ids=[rank])
    dist.destroy_process_group()


def test_resume_on_two_gpus(tmp_path):
    model = torch.nn.Linear(4, 4).cuda()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    torch.save({"model": model.state_dict(), "optimizer": optimizer.state_dict()}, tmp_path / "ckpt.pt")
    mp.spawn(_resume_worker, args=(2, tmp_path / "ckpt.pt"), nprocs=2)
