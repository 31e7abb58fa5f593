# A prediction script that never calls .eval() and never turns grad off, on the weights it loaded.
import torch

from model import Net

net = Net().cuda()
net.load_state_dict(torch.load("net.pt", map_location="cuda"))

predictions = []
for images, _ in test_loader:
    logits = net(images.cuda())  # expect: GPU103
    predictions.extend(logits.argmax(1).tolist())
print(len(predictions))
