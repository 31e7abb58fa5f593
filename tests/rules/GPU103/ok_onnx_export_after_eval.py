import torch

from model import MobileNetV3

model = MobileNetV3(num_classes=1000).cuda()
model.load_state_dict(torch.load("mobilenet.pt", map_location="cuda"))
model.eval()

dummy = torch.randn(1, 3, 224, 224, device="cuda")
torch.onnx.export(
    model,
    dummy,
    "mobilenet.onnx",
    input_names=["input"],
    output_names=["logits"],
    dynamic_axes={"input": {0: "batch"}, "logits": {0: "batch"}},
    opset_version=17,
)
traced = torch.jit.trace(model, dummy)
traced.save("mobilenet.pt")
