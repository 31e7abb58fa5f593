"""overhead_on_gpu.py — what the probe of `gpulint verify --run` costs a
training step, told apart from the noise of one run against another.

    overhead_on_gpu.py OUT_DIR [--gpulint PATH] [--config gpu|host|ddp]
                       [--rounds R] [--steps N] [--warmup W]

Each round runs overhead_loop.py four times: plain, under the probe,
under the probe, plain (ABBA, so that a drift of the machine over the
round, its clocks, temperature or other tenants, weighs on both sides
alike). Under the probe is `gpulint verify --run` (the runner, its NVML
sampling and the probe) with budgets the loop never reaches; without
--gpulint, record_run_on_gpu.py, which stands in for the runner (the
probe, with the plan the runner writes for this loop, which has no
finding, and NVML sampled every 20 ms).

A run's value is its median step time over steps W+1..N (default
101..400); a round's ratio is the mean of its two probe runs over the
mean of its two plain runs. Printed (and written to OUT_DIR/overhead-
CONFIG.json): each run, each round's ratio, their median, mean and range,
and the spread of the plain runs (highest over lowest), the noise that
the ratio is read against.

Configs (overhead_loop.py's options): gpu, ResNet-18 at batch 64, 224x224
on one GPU (the GPU's time hides the host's); host, batch 2 at 32x32 (the
GPU waits for the host: the probe's host time per step shows in full,
in ms); ddp, the gpu config under torchrun on 2 GPUs (rank 0's times)."""
import argparse
import json
import os
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
CONFIGS = {"gpu": ["--batch", "64", "--image", "224"], "host": ["--batch", "2", "--image", "32"],
           "ddp": ["--batch", "64", "--image", "224"]}


def command(options, times, probe, trace):
    """The command of one run: the loop, under torchrun for ddp, under
    gpulint or the probe's variables when `probe`; and its environment."""
    loop = [os.path.join(HERE, "overhead_loop.py"), "--steps", str(options.steps), "--times", times]
    loop += CONFIGS[options.config]
    if options.config == "ddp":
        run = [options.python, "-m", "torch.distributed.run", "--nproc-per-node", "2"] + loop
    else:
        run = [options.python] + loop
    env = dict(os.environ)
    if probe and options.gpulint:
        return [options.gpulint, "verify", "--run", "--steps", "1000000", "--eval-steps", "1000000",
                "--save-trace", trace, "--"] + run, env
    if probe:
        plan = os.path.join(options.out, "plan.json")
        with open(plan, "w") as out:
            json.dump({"findings": [], "loops": [], "cwd": HERE}, out)
        return [options.python, os.path.join(HERE, "record_run_on_gpu.py"), plan, trace, "--steps", "1000000",
                "--"] + run, env
    return run, env


def median_step(options, times):
    """The median step time of a run over steps warmup+1..steps (rank 0's
    under torchrun), or None when a step is missing."""
    path = times + (".0" if options.config == "ddp" else "")
    try:
        with open(path) as source:
            values = [json.loads(line)["time_ms"] for line in source if line.strip()]
    except (OSError, ValueError, KeyError):
        return None
    if len(values) != options.steps:
        return None
    return statistics.median(values[options.warmup:])


def one_run(options, name, probe):
    times = os.path.join(options.out, "%s-%s.times" % (options.config, name))
    trace = os.path.join(options.out, "%s-%s.trace.jsonl" % (options.config, name))
    argv, env = command(options, times, probe, trace)
    with open(os.path.join(options.out, "%s-%s.log" % (options.config, name)), "w") as log:
        result = subprocess.run(argv, cwd=HERE, env=env, stdout=log, stderr=subprocess.STDOUT, timeout=600)
    value = median_step(options, times)
    print("%-24s exit %d, median step %s ms" % (name, result.returncode, "%.3f" % value if value else "-"),
          flush=True)
    return value


def summary(options, rounds):
    ratios = [r["ratio"] for r in rounds if r["ratio"] is not None]
    plain = [v for r in rounds for v in r["plain"] if v is not None]
    probe = [v for r in rounds for v in r["probe"] if v is not None]
    lines = ["config %s: %d steps per run, median of steps %d-%d; %s" %
             (options.config, options.steps, options.warmup + 1, options.steps,
              "under gpulint verify --run" if options.gpulint else "under record_run_on_gpu.py")]
    for index, r in enumerate(rounds, 1):
        lines.append("round %d: plain %s, probe %s: %s" % (
            index, ", ".join("%.3f" % v for v in r["plain"] if v), ", ".join("%.3f" % v for v in r["probe"] if v),
            "%+.2f%%" % ((r["ratio"] - 1) * 100) if r["ratio"] else "-"))
    if ratios:
        lines.append("over %d rounds: median %+.2f%%, mean %+.2f%%, range %+.2f%% to %+.2f%%" % (
            len(ratios), (statistics.median(ratios) - 1) * 100, (statistics.mean(ratios) - 1) * 100,
            (min(ratios) - 1) * 100, (max(ratios) - 1) * 100))
    if plain and probe:
        lines.append("plain runs: %.3f to %.3f ms (spread %.2f%%); probe runs: %.3f to %.3f ms; "
                     "probe minus plain, medians of all runs: %+.3f ms" % (
                         min(plain), max(plain), (max(plain) / min(plain) - 1) * 100, min(probe), max(probe),
                         statistics.median(probe) - statistics.median(plain)))
    return lines


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("out")
    parser.add_argument("--gpulint")
    parser.add_argument("--config", choices=sorted(CONFIGS), default="gpu")
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--steps", type=int, default=400)
    parser.add_argument("--warmup", type=int, default=100)
    parser.add_argument("--python", default=sys.executable)
    options = parser.parse_args()
    options.out = os.path.abspath(options.out)
    os.makedirs(options.out, exist_ok=True)
    rounds = []
    for index in range(1, options.rounds + 1):
        values = {}
        for slot, probe in (("a", False), ("b", True), ("c", True), ("d", False)):
            values[slot] = one_run(options, "r%d%s-%s" % (index, slot, "probe" if probe else "plain"), probe)
        plain, probe = [values["a"], values["d"]], [values["b"], values["c"]]
        ratio = None
        if None not in plain and None not in probe:
            ratio = statistics.mean(probe) / statistics.mean(plain)
        rounds.append({"plain": plain, "probe": probe, "ratio": ratio})
    lines = summary(options, rounds)
    print("\n".join(lines))
    with open(os.path.join(options.out, "overhead-%s.json" % options.config), "w") as out:
        json.dump({"config": options.config, "steps": options.steps, "warmup": options.warmup,
                   "gpulint": bool(options.gpulint), "rounds": rounds, "summary": lines}, out, indent=1)


if __name__ == "__main__":
    main()
