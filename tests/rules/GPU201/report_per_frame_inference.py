import cv2
import torch
import torchvision.transforms.functional as TF

from model import YoloLike

model = YoloLike().cuda()
model.load_state_dict(torch.load("yolo.pt", map_location="cuda"))
model.eval()

cap = cv2.VideoCapture("traffic.mp4")
with torch.inference_mode():
    while cap.isOpened():
        ok, frame = cap.read()
        if not ok:
            break
        boxes = model(TF.to_tensor(frame).unsqueeze(0).cuda())
        print(len(boxes[0]))
        torch.cuda.empty_cache()  # expect: GPU201
cap.release()
