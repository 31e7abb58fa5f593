import torch
from accelerate import Accelerator


def resume(model, optimizer, run_dir):
    accelerator = Accelerator()
    model, optimizer = accelerator.prepare(model, optimizer)
    accelerator.load_state(run_dir)
    return model, optimizer
