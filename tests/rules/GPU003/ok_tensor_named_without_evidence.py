import torch

from io_utils import read_tensor

tensor = read_tensor("weights.bin")
tensor.cuda()
inputs_tensor = get_inputs()
inputs_tensor.to("cuda")
features = extractor.transform(images)
features.half()
