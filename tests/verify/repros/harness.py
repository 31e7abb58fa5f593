"""A stand-in for verify/harness.py with the same output and no PyTorch:
each step "allocates" what the script says, and the file named by
FAKE_NVML_USED_FILE tells the fake NVML about it."""
import argparse
import json
import os
import sys
import time


def _emit(record):
    sys.stdout.write(json.dumps(record) + "\n")
    sys.stdout.flush()


class Harness:
    def __init__(self, default_steps=10):
        parser = argparse.ArgumentParser()
        parser.add_argument("--steps", type=int, default=default_steps)
        parser.add_argument("--device", default="0")
        self.steps = parser.parse_args().steps

    def _tell_nvml(self, allocated):
        path = os.environ.get("FAKE_NVML_USED_FILE")
        if path:
            with open(path, "w") as used:
                used.write(str(int(allocated)))

    def run(self, step):
        """`step(k)` returns (allocated bytes, time in ms, signals) or raises."""
        _emit({"event": "start", "torch": "0.0+fake", "device": "Fake GPU", "baseline": 1 << 20})
        print("a line that is not JSON")
        for k in range(1, self.steps + 1):
            try:
                allocated, time_ms, signals = step(k)
            except Exception as error:
                _emit({"event": "error", "step": k, "type": type(error).__name__, "message": str(error)})
                sys.exit(3)
            self._tell_nvml(allocated)
            time.sleep(float(os.environ.get("FAKE_STEP_SECONDS", "0.02")))
            record = {"step": k, "allocated": allocated, "reserved": allocated, "peak": allocated,
                      "peak_reserved": allocated, "time_ms": time_ms}
            record.update(signals)
            _emit(record)
        _emit({"event": "end", "steps": self.steps})
