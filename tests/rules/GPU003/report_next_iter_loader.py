import matplotlib.pyplot as plt
import torch
import torchvision

from train import build_model, test_loader

device = torch.device("cuda:0")
model = build_model()
model.load_state_dict(torch.load("checkpoint.pt", map_location=device))
model.to(device)
model.eval()

images, labels = next(iter(test_loader))
images.to(device)  # expect: GPU003
with torch.no_grad():
    predicted = model(images).argmax(dim=1)
grid = torchvision.utils.make_grid(images[:16])
plt.imshow(grid.permute(1, 2, 0))
plt.title(" ".join(str(p.item()) for p in predicted[:16]))
plt.show()
