import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP


def build_student_and_teacher(student, teacher, student_path, teacher_path, device):
    dist.init_process_group("nccl")
    student.load_state_dict(torch.load(student_path))  # pedantic: GPU501
    teacher.load_state_dict(torch.load(teacher_path))  # pedantic: GPU501
    return DDP(student.to(device)), teacher.to(device).eval()
