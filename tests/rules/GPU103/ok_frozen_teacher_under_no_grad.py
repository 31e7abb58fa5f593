import torch
import torch.nn.functional as F

from data import train_loader
from models import build_student, build_teacher

teacher = build_teacher().cuda()
teacher.load_state_dict(torch.load("teacher.pt", map_location="cuda"))
teacher.eval()
student = build_student().cuda()
optimizer = torch.optim.AdamW(student.parameters(), lr=5e-4)
T = 4.0

for epoch in range(100):
    student.train()
    for images, labels in train_loader:
        images, labels = images.cuda(), labels.cuda()
        with torch.no_grad():
            teacher_logits = teacher(images)
        student_logits = student(images)
        kd = F.kl_div(F.log_softmax(student_logits / T, -1), F.softmax(teacher_logits / T, -1), reduction="batchmean")
        loss = 0.9 * kd * T * T + 0.1 * F.cross_entropy(student_logits, labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
