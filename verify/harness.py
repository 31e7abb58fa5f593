"""harness.py — the loop shared by the `gpulint verify` reproductions.

A reproduction builds its model, then hands one step to `Harness.run`:

    h = Harness()
    model = ...to(h.device)
    def step(k):
        ...
        return {"loss": loss.item()}      # the rule's own signals
    h.run(step, config={"batch": 512})

The harness prints one JSON line per line of stdout, which the runner reads:

    {"event": "start", "torch": ..., "device": ..., "baseline": bytes, ...}
    {"step": k, "allocated": bytes, "reserved": bytes, "peak": bytes,
     "peak_reserved": bytes, "time_ms": ms, ...signals}
    {"event": "error", "step": k, "type": "RuntimeError", "message": ...}
    {"event": "end", "steps": n}

`allocated` and `reserved` are read after the step, `peak` and
`peak_reserved` are the highest values during the step (the allocator's peak
is reset before each step). `time_ms` brackets the step with device
synchronizations. With `track_graph=True` each line also carries
`graph_nodes` (autograd nodes reachable from live tensors) and `rss` (the
process's resident memory in bytes).

Options: --steps N (override the header's count), --device N (a CUDA index,
or `cpu` for a dry run that reports no memory). A step that raises ends the
run with an "error" line and exit status 3.
"""
import argparse
import gc
import json
import os
import sys
import time

import torch


def _parse_options(default_steps):
    parser = argparse.ArgumentParser(add_help=False)
    parser.add_argument("--steps", type=int, default=default_steps)
    parser.add_argument("--device", default="0")
    options, _ = parser.parse_known_args()
    return options


def _emit(record):
    sys.stdout.write(json.dumps(record, separators=(",", ":")) + "\n")
    sys.stdout.flush()


def _rss_bytes():
    try:
        with open("/proc/self/statm") as statm:
            return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except OSError:
        return None


def live_graph_nodes():
    """Counts the autograd nodes reachable from every live tensor."""
    seen = {}  # id -> node; holding the node keeps its id unique
    stack = [obj.grad_fn for obj in gc.get_objects()
             if isinstance(obj, torch.Tensor) and obj.grad_fn is not None]
    while stack:
        node = stack.pop()
        if node is None or id(node) in seen:
            continue
        seen[id(node)] = node
        stack.extend(edge[0] for edge in node.next_functions)
    return len(seen)


class Harness:
    def __init__(self, default_steps=30, seed=0):
        options = _parse_options(default_steps)
        self.steps = max(1, options.steps)
        self.cuda = options.device != "cpu"
        self.device = torch.device(f"cuda:{options.device}" if self.cuda else "cpu")
        if self.cuda:
            torch.cuda.set_device(self.device)
        torch.manual_seed(seed)

    # ---- sizing ----------------------------------------------------------

    def free_bytes(self):
        """Free device memory now (16 GiB on a CPU dry run)."""
        if not self.cuda:
            return 16 << 30
        free, _total = torch.cuda.mem_get_info(self.device)
        return free

    def fit(self, wanted, bytes_each, share=0.5, dry=None):
        """The largest count up to `wanted` whose `bytes_each` fit in `share`
        of the free device memory (at least 1). On a CPU dry run, `dry` when
        given: a size that runs in seconds there."""
        if not self.cuda and dry is not None:
            return dry
        room = int(self.free_bytes() * share // max(1, bytes_each))
        return max(1, min(wanted, room))

    # ---- measuring -------------------------------------------------------

    def _memory(self):
        if not self.cuda:
            return {"allocated": 0, "reserved": 0, "peak": 0, "peak_reserved": 0}
        return {
            "allocated": torch.cuda.memory_allocated(self.device),
            "reserved": torch.cuda.memory_reserved(self.device),
            "peak": torch.cuda.max_memory_allocated(self.device),
            "peak_reserved": torch.cuda.max_memory_reserved(self.device),
        }

    def _sync(self):
        if self.cuda:
            torch.cuda.synchronize(self.device)

    def _start(self, config):
        self._sync()
        record = {
            "event": "start",
            "torch": torch.__version__,
            "cuda": torch.version.cuda,
            "device": torch.cuda.get_device_name(self.device) if self.cuda else "cpu",
            "steps": self.steps,
            "baseline": self._memory()["allocated"],
            "free": self.free_bytes(),
            "config": config,
        }
        _emit(record)

    def _step(self, k, step, track_graph):
        self._sync()
        if self.cuda:
            torch.cuda.reset_peak_memory_stats(self.device)
        begin = time.perf_counter()
        signals = step(k) or {}
        self._sync()
        elapsed = time.perf_counter() - begin
        record = {"step": k}
        record.update(self._memory())
        record["time_ms"] = elapsed * 1e3
        if track_graph:
            record["graph_nodes"] = live_graph_nodes()
            record["rss"] = _rss_bytes()
        record.update(signals)
        _emit(record)

    def run(self, step, config=None, track_graph=False):
        """Runs `step(k)` for k = 1..steps and reports each; exits."""
        self._start(config or {})
        for k in range(1, self.steps + 1):
            try:
                self._step(k, step, track_graph)
            except Exception as error:  # the pitfall's crash is data here
                message = str(error).strip().splitlines()
                _emit({"event": "error", "step": k, "type": type(error).__name__,
                       "message": " ".join(message)[:2000]})
                sys.exit(3)
        _emit({"event": "end", "steps": self.steps})
        sys.exit(0)


# ---- helpers the reproductions share ------------------------------------


def mlp(width, depth, device=None):
    """`depth` Linear layers of `width`, ReLU between them (built on
    `device` when given)."""
    layers = []
    for i in range(depth):
        layers.append(torch.nn.Linear(width, width, device=device))
        if i + 1 < depth:
            layers.append(torch.nn.ReLU())
    return torch.nn.Sequential(*layers)


def grad_norm(model):
    """The L2 norm of every parameter's .grad (0 where None)."""
    squares = [p.grad.detach().float().pow(2).sum() for p in model.parameters() if p.grad is not None]
    return float(torch.stack(squares).sum().sqrt()) if squares else 0.0


def flat_parameters(model):
    """A detached copy of every parameter, flattened into one vector."""
    return torch.cat([p.detach().flatten().clone() for p in model.parameters()])


def flat_running_stats(model):
    """A copy of every batch norm's running mean and variance, flattened
    into one vector: what a training-mode forward updates and an eval-mode
    one leaves alone."""
    stats = [buffer.detach().flatten().float().clone() for module in model.modules()
             if isinstance(module, torch.nn.modules.batchnorm._BatchNorm)
             for buffer in (module.running_mean, module.running_var) if buffer is not None]
    return torch.cat(stats)
