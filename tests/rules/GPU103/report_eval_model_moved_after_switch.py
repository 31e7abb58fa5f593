# model.eval() comes first; the name is then bound to the same module moved to the GPU and compiled: the
# forwards still run it in eval mode with grad on.
import torch

from nets import Classifier

model = Classifier()
model.load_state_dict(torch.load("best.pt", map_location="cpu"))
model.eval()
model = model.to("cuda")
model = torch.compile(model)
test_loader = torch.utils.data.DataLoader(torch.load("test.pt"), batch_size=64)
correct = 0
for images, labels in test_loader:
    logits = model(images.cuda())  # expect: GPU103
    correct += (logits.argmax(1) == labels.cuda()).sum().item()
print(correct / len(test_loader.dataset))
