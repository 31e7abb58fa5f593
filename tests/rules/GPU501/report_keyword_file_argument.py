import os

import torch
import torch.distributed as dist

LOCAL_RANK = int(os.environ.get("LOCAL_RANK", 0))


def load_teacher(model, path):
    teacher_state = torch.load(f=path)  # pedantic: GPU501
    model.load_state_dict(teacher_state)
    return model.to(f"cuda:{LOCAL_RANK}")
