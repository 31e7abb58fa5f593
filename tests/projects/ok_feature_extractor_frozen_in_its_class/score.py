# Scores image pairs with frozen feature extractors: no parameter needs a
# gradient and the images are plain tensors, so no graph is recorded.
import torch

from data import pair_loader
from nets.features import FrozenEncoder, VGGFeatures

vgg = VGGFeatures().cuda().eval()
encoder = FrozenEncoder().cuda()
encoder.eval()

scores = []
for a, b in pair_loader("test"):
    fa, fb = vgg(a.cuda()), vgg(b.cuda())
    dist = sum(((x - y) ** 2).mean() for x, y in zip(fa, fb))
    cos = torch.cosine_similarity(encoder(a.cuda()), encoder(b.cuda())).mean()
    scores.append((dist.item(), cos.item()))
print(sum(s[0] for s in scores) / len(scores))
