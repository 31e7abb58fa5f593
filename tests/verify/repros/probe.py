"""A stand-in for verify/probe.py: FAKE_TORCH=missing or cpu-only changes
its answer."""
import json
import os

mode = os.environ.get("FAKE_TORCH", "cuda")
if mode == "missing":
    print(json.dumps({"python": "3", "torch": None, "error": "No module named 'torch'"}))
else:
    print(json.dumps({"python": "3", "torch": "0.0+fake", "cuda": "0.0", "cuda_available": mode == "cuda",
                      "device_count": 1 if mode == "cuda" else 0, "device_name": "Fake GPU"}))
