import torch

from model import Detector
from server import publish, request_queue

model = Detector().cuda()
model.load_state_dict(torch.load("detector.pt", map_location="cuda"))
model.eval()


def serve_forever():
    while True:
        request_id, image = request_queue.get()
        detections = model(image.cuda().unsqueeze(0))
        publish(request_id, detections[0]["boxes"].tolist())


with torch.inference_mode():
    serve_forever()
