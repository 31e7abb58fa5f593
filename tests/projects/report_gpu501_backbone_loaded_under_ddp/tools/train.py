import torch
import torch.distributed as dist
import torch.multiprocessing as mp

from models.segmenter import Segmenter


def worker(gpu, world_size):
    dist.init_process_group("nccl", rank=gpu, world_size=world_size)
    torch.cuda.set_device(gpu)
    model = torch.nn.parallel.DistributedDataParallel(Segmenter(21).cuda(gpu), device_ids=[gpu])
    return model


if __name__ == "__main__":
    mp.spawn(worker, args=(torch.cuda.device_count(),), nprocs=torch.cuda.device_count())
