# argsort, topk indices and max(dim)[1] hold no graph (the forward itself is GPU103).
import torch


def evaluate(model, loader):
    model.eval()
    top5, top1, order = [], [], []
    for x, y in loader:
        out = model(x)  # expect: GPU103
        top5.append(out.topk(5, 1)[1])
        top1.append(out.max(1)[1])
        order.append(torch.argsort(out, 1))
    return torch.cat(top5), torch.cat(top1), torch.cat(order)
