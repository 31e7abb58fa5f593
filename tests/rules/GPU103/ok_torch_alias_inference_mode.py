import torch as T

from data import frames
from model import DepthNet

net = DepthNet().cuda()
net.load_state_dict(T.load("depth.pt", map_location="cuda"))
net.eval()

with T.inference_mode():
    for i, frame in enumerate(frames("video.mp4")):
        depth = net(frame.cuda().unsqueeze(0))
        T.save(depth.squeeze(0).cpu(), f"depth/{i:06d}.pt")
