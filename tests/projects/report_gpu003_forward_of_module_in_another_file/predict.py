import torch

from nets.backbone import Backbone

model = Backbone()
model.load_state_dict(torch.load("backbone.pt", map_location="cpu"))
model.cuda()
model.eval()

all_probs = []
with torch.no_grad():
    for images, _ in test_loader:
        probs = model(images.cuda()).softmax(dim=1)
        probs.cpu()  # expect: GPU003
        all_probs.append(probs.numpy())
