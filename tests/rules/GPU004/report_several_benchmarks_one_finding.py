import torch
import torch.nn as nn


def verify(net, pairs):
    net.eval()
    with torch.no_grad():
        return sum(float(net(a).dot(net(b))) for a, b in pairs) / len(pairs)


def train(net, head, loader, optimizer, benchmarks, every=2000):
    step = 0
    for epoch in range(30):
        net.train()
        for images, labels in loader:
            loss = nn.functional.cross_entropy(head(net(images)), labels)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            step += 1
            if step % every == 0:
                lfw = verify(net, benchmarks["lfw"])  # expect: GPU004
                cfp = verify(net, benchmarks["cfp"])
                agedb = verify(net, benchmarks["agedb"])
                print(step, lfw, cfp, agedb)
