import queue

import torch

from model import Detector
from server import publish, request_queue

model = Detector().cuda()
model.load_state_dict(torch.load("detector.pt", map_location="cuda"))
model.eval()

while True:
    try:
        request_id, image = request_queue.get(timeout=1.0)
    except queue.Empty:
        continue
    detections = model(image.cuda().unsqueeze(0))  # expect: GPU103
    publish(request_id, detections[0]["boxes"].tolist())
