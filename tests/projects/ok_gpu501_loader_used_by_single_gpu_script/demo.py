import torch

from model import Net
from weights import load_weights

model = load_weights(Net().cuda(), "net.pt").eval()
with torch.no_grad():
    print(model(torch.randn(1, 3, 224, 224, device="cuda")).argmax())
