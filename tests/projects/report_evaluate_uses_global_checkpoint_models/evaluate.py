# Scores greedy captions on the validation split. The models are globals
# loaded from a checkpoint and put in eval mode; evaluate() decodes with
# grad on.
import sys

import torch

from data import caption_loader

START, END = 1, 2

checkpoint = torch.load(sys.argv[1], map_location="cuda")
encoder = checkpoint["encoder"].cuda()
decoder = checkpoint["decoder"].cuda()
encoder.eval()
decoder.eval()


def evaluate(max_len=30):
    hits = total = 0
    for images, captions in caption_loader("val"):
        feats = encoder(images.cuda())  # expect: GPU103
        context = feats.mean(1)
        h = c = feats.new_zeros(feats.size(0), 256)
        word = torch.full((feats.size(0),), START, device="cuda")
        for _ in range(max_len):
            h, c = decoder.cell(torch.cat([decoder.embed(word), context], 1), (h, c))  # expect: GPU103
            word = decoder.classifier(h).argmax(1)  # expect: GPU103
            hits += (word.cpu() == captions[:, _]).sum().item()
            total += word.numel()
    return hits / max(total, 1)


if __name__ == "__main__":
    print("word accuracy", evaluate())
