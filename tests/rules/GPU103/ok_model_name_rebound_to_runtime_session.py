# After checking the TorchScript model (under no_grad), `model` is bound again to an ONNX Runtime session call:
# the timing loop runs no torch module.
import time

import onnxruntime as ort
import torch

model = torch.jit.load("model.pt", map_location="cuda")
model.eval()
dummy_input = torch.zeros(1, 3, 256, 256, device="cuda")
with torch.no_grad():
    reference = model(dummy_input)

session = ort.InferenceSession("model.onnx", providers=["CUDAExecutionProvider"])
model = lambda x: session.run(None, {session.get_inputs()[0].name: x.cpu().numpy()})[0]

start = time.time()
for _ in range(100):
    onnx_output = model(dummy_input)
print((time.time() - start) / 100)
