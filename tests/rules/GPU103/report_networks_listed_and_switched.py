# Both networks switched to eval mode by a loop over a list literal; the test loop scores them with grad on.
import torch
from torch import nn

encoder = nn.Sequential(nn.Linear(8, 16), nn.Dropout(0.2)).cuda()
head = nn.Linear(16, 4).cuda()


def test(loader):
    for net in [encoder, head]:
        net.eval()
    correct = 0
    for x, y in loader:
        features = encoder(x.cuda())  # expect: GPU103
        logits = head(features)  # expect: GPU103
        correct += (logits.argmax(1) == y.cuda()).sum().item()
    return correct
