import torch

from data import test_pairs
from model import DecoderCNN, EncoderCNN

encoder = EncoderCNN().cuda()
decoder = DecoderCNN().cuda()
ckpt = torch.load("ae.pt", map_location="cuda")
encoder.load_state_dict(ckpt["encoder"])
decoder.load_state_dict(ckpt["decoder"])
encoder.eval()
decoder.eval()

mse = 0.0
for image, _ in test_pairs:
    z = encoder(image.cuda())  # expect: GPU103
    recon = decoder(z)  # expect: GPU103
    mse += torch.mean((recon - image.cuda()) ** 2).item()
print("test mse", mse / len(test_pairs))
