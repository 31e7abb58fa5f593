import cv2
import torch
import torchvision.transforms.functional as TF

from model import PoseNet

model = PoseNet().cuda()
model.load_state_dict(torch.load("pose.pt", map_location="cuda"))
model.eval()

cap = cv2.VideoCapture(0)
with torch.inference_mode():
    while True:
        ok, frame = cap.read()
        if not ok:
            break
        tensor = TF.to_tensor(cv2.cvtColor(frame, cv2.COLOR_BGR2RGB)).unsqueeze(0).cuda()
        keypoints = model(tensor)
        for x, y in keypoints[0].tolist():
            cv2.circle(frame, (int(x), int(y)), 3, (0, 255, 0), -1)
        cv2.imshow("pose", frame)
        if cv2.waitKey(1) & 0xFF == ord("q"):
            break
cap.release()
