"""Tests of one module: the first starts a process group, the second runs in
the test process alone and reloads what it saved itself."""
import torch
import torch.distributed as dist
import torch.multiprocessing as mp
from torch.nn.parallel import DistributedDataParallel


def _ddp_worker(rank, world_size, path):
    dist.init_process_group("gloo", init_method="tcp://127.0.0.1:29511", rank=rank, world_size=world_size)
    model = DistributedDataParallel(torch.nn.Linear(4, 4))
    if rank == 0:
        torch.save(model.module.state_dict(), path)
    dist.destroy_process_group()


def test_ddp_weights_written(tmp_path):
    mp.spawn(_ddp_worker, args=(2, tmp_path / "ddp.pt"), nprocs=2)
    assert (tmp_path / "ddp.pt").exists()


def test_checkpoint_round_trip(tmp_path):
    model = torch.nn.Linear(4, 4).cuda()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    torch.save({"model": model.state_dict(), "optimizer": optimizer.state_dict()}, tmp_path / "ckpt.pt")
    state = torch.load(tmp_path / "ckpt.pt")
    model.load_state_dict(state["model"])
    optimizer.load_state_dict(state["optimizer"])
