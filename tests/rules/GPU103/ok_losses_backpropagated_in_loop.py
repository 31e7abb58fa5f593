# The loss is a list of per-output losses, each backpropagated in a loop over it.
import torch

for image, target in data_loader:
    image, target = image.cuda(), target.cuda()
    output = model(image)
    loss = criterion(output, target)
    optimizer.zero_grad()
    for part in loss:
        part.backward(retain_graph=True)  # expect: GPU104
    optimizer.step()
