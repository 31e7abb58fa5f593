"""probe.py — what `gpulint verify` asks Python before it replays anything:
one JSON line with the PyTorch version and whether it sees the GPU."""
import json
import sys

device = int(sys.argv[1]) if len(sys.argv) > 1 else 0
try:
    import torch
except Exception as error:  # no PyTorch here: the runner says so
    print(json.dumps({"python": sys.version.split()[0], "torch": None, "error": str(error)}))
    sys.exit(0)
report = {"python": sys.version.split()[0], "torch": torch.__version__, "cuda": torch.version.cuda,
          "cuda_available": torch.cuda.is_available(), "device_count": 0}
if report["cuda_available"]:
    report["device_count"] = torch.cuda.device_count()
    if device < report["device_count"]:
        report["device_name"] = torch.cuda.get_device_name(device)
print(json.dumps(report))
