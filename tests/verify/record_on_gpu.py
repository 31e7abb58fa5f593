"""record_on_gpu.py — runs reproduction pairs on a GPU machine without
building gpulint there, and saves each run as the trace `gpulint verify
--save-traces` writes (trace.h): the script's output lines and NVML samples
of the device's used memory, each with the milliseconds since the start,
then how the process ended. `gpulint verify --replay DIR` judges them.

    python3 tests/verify/record_on_gpu.py OUT_DIR verify/gpu401_training_loop

NVML is read through ctypes (libnvidia-ml.so.1) every 10 ms while a script
runs; without it the trace has no samples."""
import ctypes
import json
import os
import subprocess
import sys
import threading
import time


class Nvml:
    """Device memory used, through NVML's C interface."""

    class _Memory(ctypes.Structure):
        _fields_ = [("total", ctypes.c_ulonglong), ("free", ctypes.c_ulonglong), ("used", ctypes.c_ulonglong)]

    def __init__(self, index=0):
        self.lib = None
        try:
            lib = ctypes.CDLL("libnvidia-ml.so.1")
            handle = ctypes.c_void_p()
            if lib.nvmlInit_v2() == 0 and lib.nvmlDeviceGetHandleByIndex_v2(index, ctypes.byref(handle)) == 0:
                self.lib, self.handle = lib, handle
        except OSError:
            pass

    def used(self):
        if self.lib is None:
            return None
        memory = self._Memory()
        if self.lib.nvmlDeviceGetMemoryInfo(self.handle, ctypes.byref(memory)) != 0:
            return None
        return memory.used


def record(script, out_path, nvml, timeout_s=300):
    """Runs `script` from its folder and writes its trace to `out_path`."""
    events = []
    start = time.perf_counter()
    clock = lambda: (time.perf_counter() - start) * 1e3
    done = threading.Event()

    def sample():
        while not done.is_set():
            used = nvml.used()
            if used is not None:
                events.append((clock(), {"used": used}))
            time.sleep(0.01)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    child = subprocess.Popen([sys.executable, os.path.basename(script)], cwd=os.path.dirname(script) or ".",
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             env=dict(os.environ, PYTHONUNBUFFERED="1"))
    for line in child.stdout:
        events.append((clock(), {"out": line.rstrip("\n")}))
    timed_out = False
    try:
        child.wait(timeout=timeout_s)
    except subprocess.TimeoutExpired:
        child.kill()
        child.wait()
        timed_out = True
    wall = clock()
    done.set()
    sampler.join()
    stderr = child.stderr.read()[-2000:]
    events.sort(key=lambda event: event[0])
    with open(out_path, "w") as out:
        for t, event in events:
            out.write(json.dumps(dict({"t": t}, **event), separators=(",", ":")) + "\n")
        code = child.returncode
        out.write(json.dumps({"exit": max(code, 0), "signal": -code if code < 0 else 0, "timed_out": timed_out,
                              "wall_ms": wall, "stderr": stderr}, separators=(",", ":")) + "\n")
    return child.returncode


def main():
    if len(sys.argv) < 3:
        sys.stderr.write("usage: record_on_gpu.py OUT_DIR verify/NAME [verify/NAME ...]\n")
        return 2
    out_dir, stems = sys.argv[1], sys.argv[2:]
    os.makedirs(out_dir, exist_ok=True)
    nvml = Nvml()
    for stem in stems:
        for role in ("bad", "good"):
            script = f"{stem}_{role}.py"
            path = os.path.join(out_dir, os.path.basename(stem) + f"_{role}.jsonl")
            code = record(os.path.abspath(script), path, nvml)
            print(f"{script}: exit {code} -> {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
