# Extracts features for a retrieval index with frozen extractors passed
# to a helper; nothing records a graph.
import numpy as np

from data import gallery_loader
from nets.features import CLIPImageFeatures, InceptionPool


def embed_all(extractor, loader):
    extractor.eval()
    rows = []
    for images, _ in loader:
        rows.append(extractor(images.cuda()).cpu().numpy())
    return np.concatenate(rows)


clip = CLIPImageFeatures().cuda()
np.save("clip.npy", embed_all(clip, gallery_loader()))
pool = InceptionPool().cuda()
pool.eval()
feats = [pool(x.cuda()).cpu() for x, _ in gallery_loader()]
