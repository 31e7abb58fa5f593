# An inference loop over a traced module with grad on.
import torch
import torchvision

traced_script_module = torch.jit.trace(torchvision.models.resnet101(), torch.rand(1, 3, 224, 224))
for i in range(10):
    samples = torch.rand(32, 3, 224, 224)
    predictions = traced_script_module(samples)  # pedantic: GPU103
    print(predictions.argmax(1))
