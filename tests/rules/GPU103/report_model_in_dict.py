import torch

from data import test_loader
from models import build_student, build_teacher

models = {"teacher": build_teacher().cuda(), "student": build_student().cuda()}
models["student"].load_state_dict(torch.load("student.pt", map_location="cuda"))
models["student"].eval()

hits = 0
for images, labels in test_loader:
    logits = models["student"](images.cuda())  # expect: GPU103
    hits += (logits.argmax(1) == labels.cuda()).sum().item()
print("student accuracy", hits / len(test_loader.dataset))
