"""The probe of `gpulint verify --run` on the CPU, with a real PyTorch.

    probe_test.py CASE      run one case (meson runs each as its own test)
    probe_test.py --list    the cases

Each case writes a small training script into a temporary folder and runs
it under the probe, either directly (PYTHONPATH and the GPULINT_PROBE_*
variables, as the runner sets them) or through `gpulint verify --run`, and
checks the trace or the report. Without a Python that imports torch the
case is skipped (exit 77) and says why.
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import textwrap

HERE = os.path.dirname(os.path.abspath(__file__))
PROBE_DIR = os.path.join(os.environ.get("GPULINT_TEST_VERIFY_DIR", os.path.join(HERE, "..", "..", "verify")), "run")
EXIT_BUDGET = 85
CASES = {}


def case(function):
    CASES[function.__name__] = function
    return function


def torch_python():
    """A Python that imports torch, or None."""
    for candidate in (os.environ.get("GPULINT_TEST_PYTHON"), "/usr/bin/python3", "python3"):
        if candidate and subprocess.run([candidate, "-c", "import torch"], capture_output=True).returncode == 0:
            return candidate
    return None


class Failure(Exception):
    pass


def check(condition, message, *context):
    if not condition:
        raise Failure(message + "".join("\n--- context ---\n%s" % (c,) for c in context))


class Run:
    """A script written into a temporary folder and run under the probe."""

    def __init__(self, python, source, plan=None, steps=10, evals=20, seconds=120, files=None, extra_path=None,
                 probe=True, environ=None):
        self.dir = tempfile.mkdtemp(prefix="gpulint-probe-test-")
        self.script = os.path.join(self.dir, "train.py")
        with open(self.script, "w") as out:
            out.write(textwrap.dedent(source))
        for name, text in (files or {}).items():
            with open(os.path.join(self.dir, name), "w") as out:
                out.write(textwrap.dedent(text))
        self.trace_path = os.path.join(self.dir, "trace.jsonl")
        env = dict(os.environ)
        env.pop("GPULINT_PROBE_CLAIMED", None)
        env["PYTHONPATH"] = ":".join([PROBE_DIR] + ([extra_path] if extra_path else []))
        if probe:
            env.update(GPULINT_PROBE_TRACE=self.trace_path, GPULINT_PROBE_STEPS=str(steps),
                       GPULINT_PROBE_EVAL_STEPS=str(evals), GPULINT_PROBE_SECONDS=str(seconds))
        env.update(environ or {})
        if callable(plan):
            plan = plan(self.script)
        if plan is not None:
            plan_path = os.path.join(self.dir, "plan.json")
            with open(plan_path, "w") as out:
                json.dump(plan, out)
            env["GPULINT_PROBE_FINDINGS"] = plan_path
        self.result = subprocess.run([python, self.script], cwd=self.dir, env=env, capture_output=True, text=True,
                                     timeout=300)
        self.events = []
        if os.path.exists(self.trace_path):
            with open(self.trace_path) as trace:
                self.events = [json.loads(line) for line in trace if line.strip()]

    def of(self, kind):
        return [event for event in self.events if event["e"] == kind]

    def end(self):
        ends = self.of("end")
        check(len(ends) == 1, "one end line", self.events[-5:], self.result.stderr[-2000:])
        return ends[0]

    def line_of(self, text):
        """The 1-based line of the script that contains `text`."""
        with open(self.script) as source:
            for number, line in enumerate(source, 1):
                if text in line:
                    return number
        raise Failure("no line with " + text)

    def at(self, text):
        return [self.script, self.line_of(text)]


TRAIN = """\
    import torch
    import torch.nn as nn

    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 1))
    opt = torch.optim.SGD(model.parameters(), lr=1e-3)
    x, y = torch.randn(32, 8), torch.randn(32, 1)
    for step in range({steps}):
        {clear}
        loss = ((model(x) - y) ** 2).mean()
        loss.backward()
        opt.step()  # the step
"""


def train(steps=40, clear="opt.zero_grad()"):
    return TRAIN.format(steps=steps, clear=clear)


# ---- The probe's trace -------------------------------------------------------


@case
def steps_and_budget(python):
    """Optimizer steps are counted at the user's line, and the run stops at
    the step budget with the probe's exit status."""
    run = Run(python, train(steps=40), steps=10)
    check(run.result.returncode == EXIT_BUDGET, "exit %d at the budget" % EXIT_BUDGET, run.result.returncode,
          run.result.stderr[-2000:])
    steps = run.of("step")
    check([step["n"] for step in steps] == list(range(1, 11)), "steps 1..10", steps)
    check(all(step["at"][0] == run.at("# the step") for step in steps), "each step at opt.step()'s line", steps[0])
    check(all(step["device"] == "cpu" and step["rss"] > 0 for step in steps), "CPU steps with rss", steps[0])
    check(all("time_ms" in step for step in steps[1:]), "step times after the first", steps[1])
    end = run.end()
    check(end["why"] == "budget" and end["budget"] == "steps" and end["steps"] == 10, "ended at the budget", end)


@case
def clearing(python):
    """Gradients cleared by zero_grad (optimizer or module), by .grad = None,
    or not at all."""
    ways = {
        "opt.zero_grad()": True,
        "model.zero_grad()": True,
        "for p in model.parameters(): p.grad = None": True,
        "pass": False,
    }
    for clear, cleared in ways.items():
        run = Run(python, train(steps=6, clear=clear), steps=50)
        steps = run.of("step")
        check(len(steps) == 6, "6 steps with " + clear, steps)
        check(steps[0]["cleared"] is True, "the first step's gradients start cleared", steps[0])
        check(all(step["cleared"] is cleared for step in steps[1:]), "cleared=%s with %s" % (cleared, clear), steps)
        norms = [step["grad_norm"] for step in steps]
        if not cleared:
            check(norms[-1] > 4 * norms[0], "accumulating gradients grow", norms)
        else:
            check(norms[-1] < 2 * norms[0], "cleared gradients do not grow", norms)
        check(run.end()["why"] == "exit", "the script ended on its own", run.end())


@case
def clearing_per_optimizer(python):
    """Two optimizers (a GAN): the discriminator's zero_grad does not count
    for the generator, and the generator's gradients, left from the last
    step while the discriminator's backward runs, are not held against it
    once its own zero_grad clears them."""
    source = """\
        import torch
        import torch.nn as nn

        torch.manual_seed(0)
        g, d = nn.Linear(4, 4), nn.Linear(4, 1)
        opt_g, opt_d = torch.optim.SGD(g.parameters(), lr=1e-3), torch.optim.SGD(d.parameters(), lr=1e-3)
        for i in range(6):
            fake = g(torch.randn(8, 4))
            opt_d.zero_grad()
            d(fake.detach()).mean().backward()
            opt_d.step()
            {clear_g}
            (-d(fake).mean()).backward()
            opt_g.step()
    """
    for clear_g, cleared in (("opt_g.zero_grad()", True), ("pass", False)):
        run = Run(python, source.replace("{clear_g}", clear_g), steps=50)
        steps = run.of("step")
        check([step["opt"] for step in steps] == [1, 0] * 6, "the optimizers in turn", steps)
        check(all(step["cleared"] is True for step in steps if step["opt"] == 1), "the discriminator cleared", steps)
        generator = [step for step in steps if step["opt"] == 0]
        check(generator[0]["cleared"] is True and all(step["cleared"] is cleared for step in generator[1:]),
              "the generator cleared=%s with %s" % (cleared, clear_g), generator)
        check(all(step["backwards"] == 2 for step in generator[1:]), "two backwards between its steps", generator)


@case
def measure_by_plan(python):
    """The plan's findings choose what is measured: gradient norms for
    GPU001/GPU002, clearing for GPU001, the empty_cache A/B for GPU201;
    nothing of those for other findings; everything without a plan. A norm
    that is not finite is written as a string."""
    source = train(steps=60, clear="pass").replace("opt.step()  # the step",
                                                   "opt.step()  # the step\n        torch.cuda.empty_cache()")
    wanted = {"GPU001": ["cleared", "grad_norm"], "GPU002": ["grad_norm"], "GPU201": ["cache_ab"], "GPU103": [],
              "GPU501": ["load"], None: ["cache_ab", "cleared", "grad_norm", "load"]}
    for code, measure in wanted.items():
        plan = None if code is None else {"findings": [{"code": code, "path": "", "line": 0, "loop": None}],
                                          "loops": []}
        run = Run(python, source, plan=plan, steps=100, environ=ANY_TIMES_STEADY)
        check(run.of("torch")[0]["measure"] == measure, "measures %s for %s" % (measure, code), run.of("torch"))
        steps = run.of("step")
        check(len(steps) == 60, "60 steps", steps[-1:], run.result.stderr[-2000:])
        check(all(("grad_norm" in step) == ("grad_norm" in measure) for step in steps), "grad_norm or not", steps[1])
        check(all(("cleared" in step) == ("cleared" in measure) for step in steps), "cleared or not", steps[1])
        if "grad_norm" in measure:
            check(all(step["grad_norm"] > 0 for step in steps), "norms", steps)
        if "cleared" in measure:
            check(all(step["cleared"] is False for step in steps[1:]), "not cleared", steps)
        noop = [step["n"] for step in steps if step["cache_noop"]]
        check(bool(noop) == ("cache_ab" in measure), "empty_cache a no-op only for GPU201", noop)
    nan = train(steps=4).replace("loss.backward()", "(loss * float('nan')).backward()")
    run = Run(python, nan, steps=50)
    check([step["grad_norm"] for step in run.of("step")] == ["nan"] * 4, "a norm that is not finite", run.of("step"))


@case
def forward_modes(python):
    """Grad mode and module mode at each top-level forward, a submodule call
    inside a forward is no new forward, and the user's lines through a
    helper in another file."""
    source = """\
        import torch
        import torch.nn as nn
        from helper import evaluate

        model = nn.Sequential(nn.Linear(4, 4), nn.ReLU(), nn.Linear(4, 1))
        x = torch.randn(2, 4)
        model(x)  # train grad
        model.eval()
        with torch.no_grad():
            model(x)  # eval no_grad
        evaluate(model, x)  # through the helper
    """
    helper = """\
        def evaluate(model, x):
            return model(x)  # eval grad
    """
    run = Run(python, source, files={"helper.py": helper})
    forwards = run.of("fwd")
    check(len(forwards) == 3, "three top-level forwards (submodules are not forwards)", forwards)
    check([(f["grad"], f["train"], f["mod"]) for f in forwards] ==
          [(True, True, "Sequential"), (False, False, "Sequential"), (True, False, "Sequential")], "modes", forwards)
    check(forwards[0]["at"] == [run.at("# train grad")], "attributed to the user's line", forwards[0])
    helper_path = os.path.join(run.dir, "helper.py")
    check(forwards[2]["at"] == [[helper_path, 2], run.at("# through the helper")], "the helper's line, then the caller's",
          forwards[2])


@case
def forward_keywords(python):
    """GPU103's no_grad comparison runs the forward again with its keyword
    inputs too; a forward that raises drops the comparison, and the next
    call is a top-level forward again."""
    source = """\
        import torch
        import torch.nn as nn

        class Scaled(nn.Module):
            def __init__(self):
                super().__init__()
                self.inner = nn.Linear(4, 4)

            def forward(self, x, *, scale):
                return self.inner(x) * scale

        model = Scaled().eval()
        x = torch.randn(2, 4)
        try:
            model(x)  # raises: no scale
        except TypeError:
            pass
        out = model(x, scale=2.0)  # eval grad
    """

    def plan(path):
        return {"findings": [{"code": "GPU103", "path": os.path.realpath(path), "line": 18, "loop": None}],
                "loops": []}

    run = Run(python, source, plan=plan)
    check(run.line_of("# eval grad") == 18, "the finding's line")
    forwards = run.of("fwd")
    check([f["at"] for f in forwards] == [[run.at("# raises")], [run.at("# eval grad")]],
          "two top-level forwards (the one that raised ended)", forwards)
    ab = run.of("ab103")
    check(len(ab) == 1 and "error" not in ab[0] and "skipped" not in ab[0], "compared with its keyword input", ab)
    check(ab[0]["saved_bytes"] > 0, "the graph saved tensors", ab)


@case
def forked_workers(python):
    """DataLoader workers started by fork inherit the probe: they write
    nothing into the trace and never stop at the budget, even when the
    dataset runs modules (a transform that is an nn.Module)."""
    source = """\
        import torch
        import torch.nn as nn

        transform = nn.Linear(8, 8)

        class Data(torch.utils.data.Dataset):
            def __len__(self):
                return 64

            def __getitem__(self, index):
                with torch.no_grad():
                    return transform(torch.randn(8))

        if __name__ == "__main__":
            model = nn.Linear(8, 1)
            opt = torch.optim.SGD(model.parameters(), lr=1e-3)
            loader = torch.utils.data.DataLoader(Data(), batch_size=8, num_workers=2,
                                                 multiprocessing_context="fork")
            for epoch in range(2):
                for x in loader:
                    opt.zero_grad()
                    model(x).sum().backward()  # the forward
                    opt.step()
            print("trained")
    """
    run = Run(python, source, steps=1000, evals=1)
    check(run.result.returncode == 0 and "trained" in run.result.stdout, "the run ended on its own",
          run.result.returncode, run.result.stderr[-2000:])
    check(len(run.of("start")) == 1 and len(run.of("end")) == 1, "one process in the trace", run.events[:3])
    forwards = run.of("fwd")
    check(len(forwards) == 16 and all(f["at"] == [run.at("# the forward")] for f in forwards),
          "only the training forwards", forwards[:3], len(forwards))
    check(run.end()["why"] == "exit" and run.end()["steps"] == 16, "16 steps", run.end())


@case
def empty_cache_windows(python):
    """empty_cache() per step: the calls are counted; once step times are
    steady (the probe's Steady test) windows of six steps alternate, as
    written and a no-op, to the end of the run, and the run goes on past
    its step budget until four pairs of windows ran (timing is not
    asserted here)."""
    source = train(steps=200).replace("opt.step()  # the step", "opt.step()  # the step\n        torch.cuda.empty_cache()")
    plan = {"findings": [{"code": "GPU201", "path": "", "line": 0, "loop": None}], "loops": []}
    run = Run(python, source, plan=plan, steps=20, environ=ANY_TIMES_STEADY)
    steps = run.of("step")
    steady = run.of("steady")
    check(len(steady) == 1 and steady[0]["window"] == 6, "one steady line", steady)
    start = steady[0]["n"]
    check(start >= 11, "steady after two blocks of five timed steps", start)
    windows = [step["ab"] for step in steps]
    check(all(w is None for w in windows[:start - 1]), "no window before steady state", windows)
    check(windows[start - 1:] == [(n - start) // 6 for n in range(start, len(steps) + 1)], "windows of six from there",
          windows)
    check(all(step["cache_noop"] == (step["ab"] is not None and step["ab"] % 2 == 1) for step in steps),
          "odd windows are the no-op ones", steps)
    check(len(steps) - start + 1 >= 48, "the run goes on for four pairs of windows", len(steps))
    check(all(step["cache_calls"] == (0 if step["n"] == 1 else 1) for step in steps), "one call per step (after it)", steps[:3])
    calls = run.of("cache")
    check(len(calls) == len(steps) and calls[0]["at"] == [run.at("empty_cache")], "each call at its line", calls[:2])


# CPU step times of a tiny model on a busy machine are not steady by the
# probe's test; these tests check the schedule, not the timing.
ANY_TIMES_STEADY = {"GPULINT_PROBE_STEADY_TOLERANCE": "1000"}


@case
def steady_test(python):
    """The probe's steady-state test on scripted step times: a warm-up of
    100 ms steps, then 12.5 ms with every fourth step 100 ms (logging)."""
    probe = _import_probe()
    steady = probe.Steady()
    times = [100.0] * 11 + [100.0 if n % 4 == 0 else 12.5 for n in range(12, 60)]
    first = next(n for n, time in enumerate(times, 1) if steady.add(time))
    # the earliest of the three blocks is times 11-15: 100, 100, 12.5, 12.5, 12.5 (median 12.5)
    check(first == 25, "steady once three blocks of five after the warm-up agree", first)
    flat = probe.Steady()
    check(not any(flat.add(100.0) for _ in range(14)), "a flat warm-up shorter than three blocks is not steady", flat.times)
    drifting = probe.Steady()
    check(not any(drifting.add(100.0 / n) for n in range(1, 40)), "times that keep falling are never steady", drifting.times[-3:])


def _import_probe():
    sys.path.insert(0, os.environ["GPULINT_TEST_VERIFY_DIR"] + "/run")
    try:
        import gpulint_probe
    finally:
        del sys.path[0]
    return gpulint_probe


@case
def loop_iterations(python):
    """Iterations of a planned loop, with the graph nodes it keeps."""
    source = """\
        import torch
        import torch.nn as nn

        model = nn.Linear(8, 1)
        x = torch.randn(4, 8)
        total = 0
        for i in range(12):
            out = model(x)
            total += out.sum()  # kept with its graph
    """
    def plan(path):
        return {"findings": [{"code": "GPU101", "path": os.path.realpath(path), "line": 9, "loop": 0}],
                "loops": [{"id": 0, "path": os.path.realpath(path), "start": 7, "end": 9}]}

    run = Run(python, source, plan=plan)
    iterations = run.of("iter")
    check([it["n"] for it in iterations] == list(range(1, 13)), "12 iterations", iterations)
    nodes = [it["nodes"] for it in iterations]
    check(all(b > a for a, b in zip(nodes, nodes[1:])), "live graph nodes grow every iteration", nodes)


@case
def seconds_budget(python):
    run = Run(python, train(steps=10 ** 9), steps=10 ** 9, seconds=6)
    check(run.result.returncode == EXIT_BUDGET, "stopped", run.result.returncode, run.result.stderr[-1000:])
    end = run.end()
    check(end["budget"] == "seconds" and 6000 <= end["t"] < 60000, "at the seconds budget", end)


@case
def crash_exit_and_no_loop(python):
    crash = train(steps=10).replace("opt.step()  # the step", "opt.step()  # the step\n        if step == 2: raise ValueError('boom')")
    run = Run(python, crash)
    end = run.end()
    check(end["why"] == "crash" and end["error"] == "ValueError: boom" and end["steps"] == 3, "the crash", end)
    check(end["at"] == [run.at("raise ValueError")], "the line that raised", end)
    check("Traceback" in run.result.stderr and run.result.returncode == 1, "the usual traceback", run.result.stderr)
    run = Run(python, "import sys\nimport torch\nsys.exit(3)\n" + textwrap.dedent(train()))
    check(run.end()["why"] == "exit" and run.end()["steps"] == 0 and run.result.returncode == 3, "exited early",
          run.end())
    run = Run(python, "print('no torch here')\n")
    check(run.of("torch") == [] and run.end()["why"] == "exit", "never imported torch", run.events)


@case
def sitecustomize_chain(python):
    """The sitecustomize that was there runs too; without the variables the
    probe does nothing."""
    other = tempfile.mkdtemp(prefix="gpulint-site-")
    with open(os.path.join(other, "sitecustomize.py"), "w") as out:
        out.write("import builtins\nbuiltins.CHAINED = 'yes'\n")
    source = "import builtins, sys\nimport torch\nprint('chained', getattr(builtins, 'CHAINED', 'no'), " \
             "'gpulint_probe' in sys.modules)\n"
    run = Run(python, source, extra_path=other)
    check("chained yes True" in run.result.stdout, "chained with the probe on", run.result.stdout, run.result.stderr)
    check(len(run.of("torch")) == 1, "probe saw torch", run.events)
    run = Run(python, source, extra_path=other, probe=False)
    check("chained yes False" in run.result.stdout, "chained, probe off", run.result.stdout, run.result.stderr)
    check(not os.path.exists(run.trace_path), "no trace without the variables")


@case
def child_processes(python):
    """A child process of the run (a worker) inherits the variables but
    does not write to the trace."""
    source = "import subprocess, sys\nimport torch\nsubprocess.run([sys.executable, '-c', 'import torch'])\n"
    run = Run(python, source)
    starts = run.of("start")
    check(len(starts) == 1 and len(run.of("torch")) == 1 and len(run.of("end")) == 1, "only the first process",
          run.events)


# ---- Through `gpulint verify --run` -----------------------------------------

PITFALLS = """\
    import torch
    import torch.nn as nn

    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 1))
    opt = torch.optim.SGD(model.parameters(), lr=1e-3)
    x, y = torch.randn(32, 8), torch.randn(32, 1)
    crit = nn.MSELoss()
    for step in range(100):
        out = model(x)
        loss = crit(out, y)
        loss.backward()
        opt.step()
        torch.cuda.empty_cache()
    model.eval()
    total = 0
    for i in range(100):
        out = model(x)
        total += crit(out, y)
"""


def gpulint_run(python, source, *options, args=()):
    folder = tempfile.mkdtemp(prefix="gpulint-run-e2e-")
    script = os.path.join(folder, "train.py")
    with open(script, "w") as out:
        out.write(textwrap.dedent(source))
    json_path = os.path.join(folder, "out.json")
    command = [os.environ["GPULINT_TEST_BINARY"], "verify", "--run", "--json", json_path, *options, "--", python,
               "train.py", *args]
    result = subprocess.run(command, cwd=folder, capture_output=True, text=True, timeout=300)
    report = json.load(open(json_path)) if os.path.exists(json_path) else None
    return result, report


def verdicts(report):
    return {(f["code"], f["line"]): f["verdict"] for f in report["findings"]}


@case
def e2e_pitfalls(python):
    result, report = gpulint_run(python, PITFALLS, "--steps", "20")
    check(result.returncode == 1, "exit 1: confirmed", result.returncode, result.stdout, result.stderr[-2000:])
    wanted = {("GPU001", 12): "CONFIRMED", ("GPU201", 14): "NOT OBSERVED", ("GPU103", 18): "CONFIRMED",
              ("GPU101", 19): "CONFIRMED"}
    check(verdicts(report) == wanted, "the verdicts", verdicts(report), result.stdout)
    check(report["run"]["device"] == "cpu" and report["run"]["steps"] == 100, "ran on the CPU", report["run"])
    check("CONFIRMED: gradients were not cleared before 99 of 99 steps" in result.stdout, "GPU001 says how",
          result.stdout)
    check("live autograd nodes +" in result.stdout, "GPU101 says how", result.stdout)


@case
def e2e_fixed_and_not_reached(python):
    fixed = PITFALLS.replace("    loss.backward()", "    opt.zero_grad()\n        loss.backward()") \
        .replace("        torch.cuda.empty_cache()\n", "") \
        .replace("        total += crit(out, y)", "        total += crit(out, y).item()") \
        .replace("    for i in range(100):", "    torch.set_grad_enabled(False)\n    for i in range(100):")
    result, report = gpulint_run(python, fixed, "--steps", "20")
    check(result.returncode == 0 and report["findings"] == [] and report["unexplained_growth"] == [], "nothing",
          result.stdout, result.stderr[-2000:])
    gated = PITFALLS.replace("model.eval()", "import sys\n    if '--eval' not in sys.argv: sys.exit(0)\n    model.eval()")
    result, report = gpulint_run(python, gated, "--steps", "20")
    found = verdicts(report)
    check(found[("GPU101", 21)] == "NOT REACHED" and found[("GPU001", 12)] == "CONFIRMED", "eval not reached",
          found, result.stdout)
    check("NOT REACHED: line 21 did not run: the script exited first" in result.stdout, "why", result.stdout)


@case
def e2e_replay(python):
    """A trace saved with --save-trace is judged the same with --replay."""
    folder = tempfile.mkdtemp(prefix="gpulint-run-replay-")
    saved = os.path.join(folder, "trace.jsonl")
    first, _ = gpulint_run(python, PITFALLS, "--steps", "20", "--save-trace", saved)
    again = subprocess.run([os.environ["GPULINT_TEST_BINARY"], "verify", "--run", "--replay", saved],
                           capture_output=True, text=True)
    check(again.returncode == first.returncode and again.stdout == first.stdout, "the same report", first.stdout,
          again.stdout)


# Two ranks of a data-parallel loop on the CPU (gloo): started by
# mp.spawn, or by a launcher that sets RANK and WORLD_SIZE as torchrun does
# (Debian's torch 1.13 cannot run torchrun itself on Python 3.11). Each
# loads a checkpoint saved by rank 0 without map_location.
RANKS = """\
    import os
    import subprocess
    import sys
    import torch
    import torch.distributed as dist
    import torch.nn as nn


    def main(rank=None, world=None, port=None):
        if rank is None:
            dist.init_process_group("gloo")
        else:
            dist.init_process_group("gloo", init_method="tcp://127.0.0.1:%d" % port, rank=rank, world_size=world)
        model = nn.Linear(256, 256)
        if dist.get_rank() == 0:
            torch.save(model.state_dict(), "ckpt.pt")
        dist.barrier()
        state = torch.load("ckpt.pt")
        model.load_state_dict(state)
        ddp = nn.parallel.DistributedDataParallel(model)
        opt = torch.optim.SGD(ddp.parameters(), lr=0.01)
        x = torch.randn(16, 256)
        for step in range(200):
            opt.zero_grad()
            loss = ddp(x).pow(2).mean()
            loss.backward()
            opt.step()


    PORT = 29500 + os.getpid() % 1000
    if __name__ == "__main__" and sys.argv[1:] == ["spawn"]:
        torch.multiprocessing.spawn(main, args=(2, PORT), nprocs=2)
    elif __name__ == "__main__" and sys.argv[1:] == ["launch"]:
        env = dict(os.environ, WORLD_SIZE="2", MASTER_ADDR="127.0.0.1", MASTER_PORT=str(PORT))
        workers = [subprocess.Popen([sys.executable, __file__], env=dict(env, RANK=str(r), LOCAL_RANK=str(r)))
                   for r in range(2)]
        sys.exit(max(worker.wait() for worker in workers))
    elif __name__ == "__main__":
        main()
"""


@case
def ranks(python):
    """Every rank runs the probe, each writes its trace, the runner merges
    them and the verdicts are per rank: the launcher's own trace (no step)
    is left out, both ranks stop at the same step, and the load is judged
    on each (on the CPU: NOT OBSERVED, the tensors stayed on the CPU)."""
    for how in ("spawn", "launch"):
        result, report = gpulint_run(python, RANKS, "--steps", "10", args=(how,))
        check(report is not None, how + ": a report", result.stdout, result.stderr[-3000:])
        ranks = report["run"]["ranks"]
        check([rank["rank"] for rank in ranks] == [0, 1], how + ": ranks 0 and 1", ranks, result.stderr[-3000:])
        check(ranks[0]["steps"] == ranks[1]["steps"] >= 10, how + ": both stop at the same step", ranks)
        check("2 ranks:\n    rank 0: " in result.stdout and "stopped at the budget (steps)" in result.stdout,
              how + ": the ranks in the report", result.stdout)
        wanted = "NOT OBSERVED: rank 0 (the same on 2 of 2 ranks): torch.load put 257.0 KB on cpu"
        check(wanted in result.stdout, how + ": " + wanted, result.stdout)


# ---- Recorded on a GPU (no torch needed) ------------------------------------

RECORDED = os.path.join(HERE, "traces")


RECORDED_ROOT = "/src/gpulint"  # the checkout the committed traces were recorded in


def replay(name):
    result = subprocess.run([os.environ["GPULINT_TEST_BINARY"], "verify", "--run", "--replay",
                             os.path.join(RECORDED, name)], capture_output=True, text=True)
    return result.returncode, result.stdout


def recorded_h100(python):
    """The H100 traces of tests/verify_run/gpu/ judged again: the verdicts
    and the numbers measured there."""
    status, out = replay("h100_classifier.jsonl")
    check(status == 1 and "on NVIDIA H100 80GB HBM3, torch 2.11.0+cu130" in out, "the device", out)
    for wanted in ("GPU201 ", "CONFIRMED: called 30 time(s); step 13.01 ms with it, 9.76 ms with it a no-op (+33%, median of 2 window "
                   "pairs, pairs +32% to +34%;",
                   "CONFIRMED: 20 of 20 forward(s) here ran with grad on (20 in eval mode); its graph saved 1196.3 MB "
                   "of tensors; peak 1248.0 MB with grad, 512.0 MB under no_grad (x2.44)",
                   "CONFIRMED: allocated memory +1196.3 MB/iteration, live autograd nodes +18.0/iteration over 20 "
                   "iterations of the loop at line 45"):
        check(wanted in out, "classifier: " + wanted, out)
    check("NOT" not in out, "nothing unconfirmed in the classifier", out)
    status, out = replay("h100_lstm_lm.jsonl")
    check("GPU102 " in out and "CONFIRMED: the run raised: RuntimeError: Trying to backward through the graph a second "
          "time" in out, "GPU102 crash", out)
    check("NOT OBSERVED: only 1 optimizer step(s) ran after a backward" in out, "GPU001 cut short by the crash", out)


# `gpulint verify --run` (runner, NVML and probe) on each script of
# tests/verify_run/gpu/ and its fixed twin (run_verify_on_gpu.sh), on an H100:
# trace -> (exit status, {(code, line): verdict}, texts the report holds).
# The classifier's two traces come from the probe that measures by the
# plan and writes step lines once their CUDA event completed (the torch
# line says what it measures); the others from the probe before it, whose
# traces are judged the same way.
RUN_TRACES = {
    "classifier": (1, {("GPU201", 42): "CONFIRMED", ("GPU103", 46): "CONFIRMED", ("GPU101", 47): "CONFIRMED"},
                   ["step 12.06 ms with it, 8.27 ms with it a no-op (+46%, median of 2 window pairs, pairs +40% to +52%;",
                    "peak 1248.0 MB with grad, 512.0 MB under no_grad (x2.44)",
                    "allocated memory +1196.3 MB/iteration, live autograd nodes +18.0/iteration",
                    "device memory (NVML): 480 MB before, 24327 MB at most"]),
    "classifier_fixed": (0, {}, ["device memory (NVML): 480 MB before, 3683 MB at most"]),
    "lstm_lm": (1, {("GPU102", 31): "CONFIRMED", ("GPU001", 33): "NOT OBSERVED"},
                ["CONFIRMED: the run raised: RuntimeError: Trying to backward through the graph a second time",
                 "NOT OBSERVED: only 1 optimizer step(s) ran after a backward"]),
    "lstm_lm_tbptt": (1, {("GPU001", 36): "CONFIRMED"},
                      ["gradients were not cleared before 49 of 49 steps; the gradient norm went 0.0503 -> 0.3558 (x7.07)"]),
    "lstm_lm_fixed": (0, {}, ["ran 50 optimizer step(s)"]),
    "finetune_amp": (1, {("GPU103", 64): "CONFIRMED", ("GPU101", 86): "CONFIRMED", ("GPU201", 93): "CONFIRMED"},
                     ["peak 777.3 MB with grad, 112.0 MB under no_grad (x6.94)",
                      "live autograd nodes +355.0/iteration over 240 iterations of the loop at line 82",
                      # paired windows: the pooled medians had said +119%, most of it the run slowing down
                      # over its later steps, all of them with empty_cache() as written
                      "step 221.47 ms with it, 176.80 ms with it a no-op (+26%, median of 2 window pairs, "
                      "pairs +21% to +30%;"]),
    "finetune_amp_fixed": (0, {}, ["ran 50 optimizer step(s)"]),
    "gan": (1, {("GPU002", 65): "CONFIRMED", ("GPU001", 70): "CONFIRMED"},
            ["25 of 50 step(s) after a backward applied no gradient",
             "gradients were not cleared before 24 of 49 steps; the gradient norm went 8.025 -> 9.006"]),
    "gan_fixed": (0, {}, ["ran 50 optimizer step(s)"]),
    "rl_recurrent": (1, {("GPU103", 65): "CONFIRMED", ("GPU101", 92): "CONFIRMED"},
                     ["peak 26.0 MB with grad, 26.0 MB under no_grad (x1.00); with grad on the loop at line 64 grew "
                      "+5.8 MB/iteration over 48 iterations",
                      "live autograd nodes +341.0/iteration over 20 iterations of the loop at line 76"]),
    # the training rollout's graph grows until the backward after the loop:
    # no unexplained growth
    "rl_recurrent_fixed": (0, {}, ["ran 1 optimizer step(s), 20 evaluation iteration(s)"]),
}


def deferred_step_lines(name):
    """The classifier's traces: step lines timed by CUDA events, written
    after events of later steps, in order, with only what the plan needs."""
    events = [json.loads(line) for line in open(os.path.join(RECORDED, "h100_run_%s.jsonl" % name))]
    torch_line = [event for event in events if event["e"] == "torch"]
    check(torch_line and torch_line[0]["measure"] == (["cache_ab"] if name == "classifier" else []),
          "measures what the plan needs", torch_line)
    steps = [event for event in events if event["e"] == "step"]
    check([step["n"] for step in steps] == list(range(1, 31)), "30 steps in order", [s["n"] for s in steps])
    check(all(step["time_ms"] > 0 for step in steps[1:]) and "time_ms" not in steps[0], "timed from step 2", steps[:2])
    check(all("grad_norm" not in step and "cleared" not in step for step in steps), "no norms for GPU201", steps[0])
    late = [event["n"] for before, event in zip(events, events[1:]) if event["e"] == "step" and before["t"] > event["t"]]
    check(len(late) >= 10, "step lines written after later events (stamped with their own step's time)", late)


def recorded_run(name):
    def run_case(python):
        if name.startswith("classifier"):
            deferred_step_lines(name)
        status, wanted, texts = RUN_TRACES[name]
        folder = tempfile.mkdtemp(prefix="gpulint-run-recorded-")
        json_path = os.path.join(folder, "out.json")
        result = subprocess.run([os.environ["GPULINT_TEST_BINARY"], "verify", "--run", "--replay",
                                 os.path.join(RECORDED, "h100_run_%s.jsonl" % name), "--json", json_path],
                                capture_output=True, text=True)
        out = result.stdout
        check(result.returncode == status, "exit %d" % status, result.returncode, out, result.stderr)
        check("on NVIDIA H100 80GB HBM3, torch 2.11.0+cu130, Python 3.12.3" in out, "the device", out)
        report = json.load(open(json_path))
        check(verdicts(report) == wanted, "the verdicts", verdicts(report), out)
        check(report["unexplained_growth"] == [], "no unexplained growth", report["unexplained_growth"], out)
        for text in texts:
            check(text in out, name + ": " + text, out)
    return run_case


def readme_run_example(python):
    """The README's `verify --run` example is the replay of the committed
    classifier trace, line for line."""
    readme = open(os.path.join(HERE, "..", "..", "README.md"), encoding="utf-8").read()
    blocks = re.findall(r"^```[^\n]*\n(.*?)^```$", readme, re.S | re.M)
    examples = [block for block in blocks if block.startswith("$ cd tests/verify_run/gpu && gpulint verify --run ")]
    check(len(examples) == 1, "one `verify --run` example in the README", len(examples))
    command, _, shown = examples[0].partition("\n")
    check(command.endswith("-- python3 classifier.py"), "the classifier's command", command)
    # The trace records the paths of the checkout it ran in (RECORDED_ROOT);
    # replayed from this checkout's copy of the script's folder, the report
    # shows them relative, as the run did.
    root = os.path.abspath(os.path.join(HERE, "..", ".."))
    with open(os.path.join(RECORDED, "h100_run_classifier.jsonl"), encoding="utf-8") as source:
        trace = source.read().replace(RECORDED_ROOT + "/", root + "/")
    with tempfile.TemporaryDirectory() as folder:
        moved = os.path.join(folder, "trace.jsonl")
        with open(moved, "w", encoding="utf-8") as target:
            target.write(trace)
        result = subprocess.run([os.environ["GPULINT_TEST_BINARY"], "verify", "--run", "--replay", moved],
                                capture_output=True, text=True, cwd=os.path.join(root, "tests", "verify_run", "gpu"))
    status, out = result.returncode, result.stdout
    check(status == 1, "exit 1", status)
    check(RECORDED_ROOT not in out and root not in out, "paths relative to the script's folder", out)
    normal = ["\n".join(line.rstrip() for line in text.strip().splitlines()) for text in (shown, out)]
    check(normal[0] == normal[1], "the README shows the replay", shown, out)


# On NVIDIA H200s (driver 580.159.04, torch 2.11.0+cu130), with
# run_ranks_on_gpu.sh: the steady-state A/B on a script with a warm-up,
# evaluation and checkpoint steps, and every rank under torchrun.
H200_RUN_TRACES = {
    "warmup_cache": (1, {("GPU201", 57): "CONFIRMED"},
                     ["step 10.08 ms with it, 7.69 ms with it a no-op (+31%, median of 4 window pairs, "
                      "pairs +26% to +37%;"]),
    "warmup_cache_fixed": (0, {}, ["no findings in"]),
    # the same script with cuDNN autotuning on: there empty_cache() cost nothing
    "warmup_cache_autotuned": (0, {("GPU201", 57): "NOT OBSERVED"},
                               ["step 7.63 ms with it, 7.64 ms with it a no-op (-0%, median of 4 window pairs"]),
    "ddp_resume": (1, {("GPU501", 35): "CONFIRMED"},
                   ["2 ranks:\n    rank 0 on cuda:0: 53 step(s)", "    rank 1 on cuda:1: 53 step(s)",
                    "GPU 0: 615 MB before, 5430 MB at most", "GPU 1: 615 MB before, 4396 MB at most",
                    "CONFIRMED: rank 0 (the same on 2 of 2 ranks): torch.load put 512.1 MB on cuda:0",
                    "GPU 0 holds 2 copies of it (rank 0 512.1 MB, rank 1 512.1 MB)"]),
    "ddp_resume_fixed": (0, {}, ["GPU 0: 615 MB before, 4396 MB at most", "GPU 1: 615 MB before, 4396 MB at most",
                                 "2 ranks:"]),
    # the two pitfalls again, with the probe that wraps nn.Module.__call__
    "warmup_cache_rerun": (1, {("GPU201", 57): "CONFIRMED"},
                           ["ran 75 optimizer step(s)", "step 10.04 ms with it, 7.58 ms with it a no-op (+32%, "
                            "median of 4 window pairs, pairs +20% to +44%;"]),
    "ddp_resume_rerun": (1, {("GPU501", 35): "CONFIRMED"},
                         ["rank 0 on cuda:0: 53 step(s), median step 10.51 ms",
                          "GPU 0: 615 MB before, 5946 MB at most", "GPU 1: 615 MB before, 4396 MB at most",
                          "GPU 0 holds 2 copies of it (rank 0 512.1 MB, rank 1 512.1 MB)"]),
}


def recorded_h200_run(name):
    def check_trace(python):
        status, verdict_of, texts = H200_RUN_TRACES[name]
        folder = tempfile.mkdtemp(prefix="gpulint-run-recorded-")
        json_path = os.path.join(folder, "out.json")
        result = subprocess.run([os.environ["GPULINT_TEST_BINARY"], "verify", "--run", "--replay",
                                 os.path.join(RECORDED, "h200_run_%s.jsonl" % name), "--json", json_path],
                                capture_output=True, text=True)
        check(result.returncode == status, "exit status %d" % status, result.returncode, result.stdout)
        check(verdicts(json.load(open(json_path))) == verdict_of, "the verdicts", result.stdout)
        for text in texts:
            check(text in result.stdout, text, result.stdout)
    return check_trace


RECORDED_CASES = {"recorded_h100": recorded_h100, "readme_run_example": readme_run_example}
RECORDED_CASES.update({"recorded_h100_run/" + name: recorded_run(name) for name in RUN_TRACES})
RECORDED_CASES.update({"recorded_h200_run/" + name: recorded_h200_run(name) for name in H200_RUN_TRACES})
CASES.update(RECORDED_CASES)


def main(argv):
    if argv[1:] == ["--list"]:
        print("\n".join(CASES))
        return 0
    if len(argv) != 2 or argv[1] not in CASES:
        print("usage: probe_test.py CASE | --list", file=sys.stderr)
        return 2
    python = torch_python()
    if python is None and argv[1] not in RECORDED_CASES:
        print("skipped: no Python here imports torch (Debian: apt-get install python3-torch)")
        return 77
    # Every folder a case makes goes under one root: removed when the case
    # passes, kept (and named) when it fails.
    root = tempfile.mkdtemp(prefix="gpulint-probe-test-")
    tempfile.tempdir = root
    try:
        CASES[argv[1]](python)
    except Failure as failure:
        print("FAIL %s: %s (its files are in %s)" % (argv[1], failure, root))
        return 1
    shutil.rmtree(root, ignore_errors=True)
    print("ok %s (%s)" % (argv[1], python))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
