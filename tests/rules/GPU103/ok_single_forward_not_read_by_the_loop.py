# One warm-up forward in eval mode whose result the later loop never reads: one peak, not held.
import torch

from retrieval import Embedder, load_image


def time_gallery(warmup_path, gallery_paths):
    embedder = Embedder().cuda()
    embedder.eval()
    warm = embedder(load_image(warmup_path).cuda())  # pedantic: GPU103
    print(warm.shape)
    with torch.no_grad():
        for path in gallery_paths:
            print(embedder(load_image(path).cuda()).norm().item())
