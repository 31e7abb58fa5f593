# The teacher is frozen with requires_grad_(False): its forwards record no graph.
import torch
import torch.nn as nn
import torch.nn.functional as F

from models import build_student, build_teacher

teacher = build_teacher().cuda().eval()
teacher.requires_grad_(False)
student = build_student().cuda()
optimizer = torch.optim.AdamW(student.parameters(), lr=3e-4)

for images, labels in train_loader:
    images, labels = images.cuda(), labels.cuda()
    soft = teacher(images).softmax(-1)
    logits = student(images)
    loss = F.cross_entropy(logits, labels) + F.kl_div(logits.log_softmax(-1), soft, reduction="batchmean")
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
