import time

import torch
import torchvision


def benchmark(model, batch, iters=50):
    with torch.inference_mode():
        for _ in range(5):
            model(batch)
        torch.cuda.synchronize()
        start = time.perf_counter()
        for _ in range(iters):
            model(batch)
        torch.cuda.synchronize()
    return (time.perf_counter() - start) / iters


batch = torch.randn(32, 3, 224, 224, device="cuda")
for name in ["resnet18", "resnet50", "vit_b_16", "convnext_tiny"]:
    model = torchvision.models.get_model(name).cuda().eval()
    print(name, f"{benchmark(model, batch) * 1e3:.2f} ms")
    del model
    torch.cuda.empty_cache()
