# A retrieval demo embeds the query once in eval mode, then compares it with each gallery image:
# the query's graph stays alive through the whole gallery loop.
import torch

from retrieval import Embedder, load_image


def rank_gallery(query_path, gallery_paths, weights):
    embedder = Embedder().cuda()
    embedder.load_state_dict(torch.load(weights))
    embedder.eval()
    query = embedder(load_image(query_path).cuda())[0]  # expect: GPU103
    scores = []
    for path in gallery_paths:
        candidate = embedder(load_image(path).cuda())[0]  # expect: GPU103
        scores.append((candidate @ query).item())
    return scores
