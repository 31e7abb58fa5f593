import torch


def distill(student, teacher, loader, optimizer, temperature=4.0):
    teacher.requires_grad_(False)
    student.train()
    for x, _ in loader:
        teacher.eval()
        with torch.no_grad():
            soft = torch.softmax(teacher(x) / temperature, dim=1)
        loss = torch.nn.functional.kl_div(torch.log_softmax(student(x) / temperature, dim=1), soft, reduction="batchmean")
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
