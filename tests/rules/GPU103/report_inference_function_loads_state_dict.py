# An inference function builds the network, loads its trained state and labels frames with grad on.
import torch
from torch import nn


class Segmenter(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.Conv2d(16, 4, 1))

    def forward(self, x):
        return self.body(x)


def label_frames(frames, weights_path):
    segmenter = Segmenter().cuda()
    segmenter.load_state_dict(torch.load(weights_path, map_location="cuda"))
    masks = []
    for frame in frames:
        logits = segmenter(frame.cuda().unsqueeze(0))  # expect: GPU103
        masks.append(logits.argmax(1).cpu())
    return masks


if __name__ == "__main__":
    print(len(label_frames([torch.rand(3, 32, 32)], "segmenter.pt")))
