"""Records what `gpulint verify --run` records, on a GPU machine where
gpulint is not built: the probe's traces of every process of COMMAND (the
run's first process and each rank), merged as the runner merges them, and
the runner's own last line with NVML's memory per device (first sample,
highest, last; sampled every 20 ms through pynvml). `gpulint verify --run
--replay TRACE` judges the result anywhere.

    record_run_on_gpu.py PLAN TRACE [--steps N] [--seconds S] -- COMMAND ...

PLAN is a plan written by `gpulint verify --run` on any machine (the
"plan" line of a saved trace), its checkout's path as @ROOT@; COMMAND runs
in the plan's folder (its "cwd")."""
import json
import os
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))


class Sampler(threading.Thread):
    """NVML's memory used on each device, every 20 ms, until stopped."""

    def __init__(self):
        super().__init__(daemon=True)
        self.devices, self.name, self.driver, self.stopping = [], None, None, False
        try:
            import pynvml
            pynvml.nvmlInit()
            self.nvml = pynvml
            count = pynvml.nvmlDeviceGetCount()
            self.handles = [pynvml.nvmlDeviceGetHandleByIndex(i) for i in range(count)]
            name = pynvml.nvmlDeviceGetName(self.handles[0])
            driver = pynvml.nvmlSystemGetDriverVersion()
            self.name = name.decode() if isinstance(name, bytes) else name
            self.driver = driver.decode() if isinstance(driver, bytes) else driver
            self.devices = [{"index": i, "start": None, "peak": 0, "end": 0} for i in range(count)]
        except Exception as error:  # recorded without NVML
            print("no NVML: %s" % error, file=sys.stderr)
            self.handles = []

    def run(self):
        while not self.stopping:
            for device, handle in zip(self.devices, self.handles):
                used = self.nvml.nvmlDeviceGetMemoryInfo(handle).used
                device["start"] = used if device["start"] is None else device["start"]
                device["peak"] = max(device["peak"], used)
                device["end"] = used
            time.sleep(0.02)


def merged(trace):
    """The traces of the run's processes, as the runner merges them."""
    folder, base = os.path.split(trace)
    names = sorted(name for name in os.listdir(folder)
                   if name.startswith(base + ".") and name[len(base) + 1:].isdigit())
    parts = ([base] if os.path.exists(trace) else []) + names
    text = ""
    for name in parts:
        with open(os.path.join(folder, name), encoding="utf-8", errors="replace") as source:
            body = source.read()
        text += ('{"e":"process","file":"%s"}\n' % name if len(parts) > 1 else "") + body
    return text


def main(argv):
    split = argv.index("--")
    plan_path, out, options, command = argv[0], argv[1], argv[2:split], argv[split + 1:]
    steps = options[options.index("--steps") + 1] if "--steps" in options else "50"
    seconds = float(options[options.index("--seconds") + 1]) if "--seconds" in options else 300
    folder = tempfile.mkdtemp(prefix="gpulint-run-")
    with open(plan_path, encoding="utf-8") as source:
        plan_text = source.read().replace("@ROOT@", ROOT)
    plan = json.loads(plan_text)
    with open(os.path.join(folder, "plan.json"), "w", encoding="utf-8") as target:
        target.write(plan_text)
    trace = os.path.join(folder, "trace.jsonl")
    env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "verify", "run"), PYTHONUNBUFFERED="1",
               GPULINT_PROBE_TRACE=trace, GPULINT_PROBE_FINDINGS=os.path.join(folder, "plan.json"),
               GPULINT_PROBE_STEPS=steps, GPULINT_PROBE_EVAL_STEPS="20", GPULINT_PROBE_SECONDS=str(seconds))
    env.pop("GPULINT_PROBE_CLAIMED", None)
    sampler = Sampler()
    sampler.start()
    timed_out = False
    process = subprocess.Popen(command, cwd=plan.get("cwd", "."), env=env, stderr=subprocess.PIPE, text=True,
                               errors="replace", start_new_session=True)
    try:
        _, stderr = process.communicate(timeout=seconds + 60)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, 9)
        _, stderr = process.communicate()
        timed_out = True
    sampler.stopping = True
    sampler.join()
    sys.stderr.write(stderr[-4000:])
    lines = [line for line in stderr.splitlines() if line.strip()]
    runner = {"e": "runner", "command": command, "exit": max(process.returncode, 0),
              "signal": -process.returncode if process.returncode < 0 else 0, "timed_out": timed_out,
              "stderr_last": lines[-1] if lines else ""}
    if sampler.devices:
        runner.update(device_name=sampler.name, driver=sampler.driver, nvml_start=sampler.devices[0]["start"],
                      nvml_peak=sampler.devices[0]["peak"], nvml_devices=sampler.devices)
    with open(out, "w", encoding="utf-8") as target:
        target.write(merged(trace) + json.dumps(runner, separators=(",", ":")) + "\n")
    print("%s: exit %d" % (" ".join(command), process.returncode), file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv[1:])
