"""gpulint_probe.py — what `gpulint verify --run` watches in the user's run.

Started by this folder's sitecustomize.py when the runner's variables are
set:

    GPULINT_PROBE_TRACE       where to write the trace (JSON lines)
    GPULINT_PROBE_FINDINGS    the plan: the findings to check and the loops
                              of the script (JSON, written by the runner)
    GPULINT_PROBE_STEPS       stop after this many optimizer steps (50)
    GPULINT_PROBE_EVAL_STEPS  ... and this many evaluation iterations (20)
    GPULINT_PROBE_SECONDS     ... or after this many seconds (300)
    GPULINT_PROBE_STEADY_TOLERANCE  the steady-state test's tolerance (0.10)

Nothing happens until the script imports torch. Then the probe hooks
PyTorch's public extension points: optimizer steps (global step hooks on
torch >= 2.0, else a wrapper of each optimizer's `step` made at
construction), module forwards (nn.Module.__call__ wrapped; only top-level
calls count, and a submodule's call costs one test), `Tensor.backward` and
`torch.autograd.backward`, `zero_grad` of optimizers and modules, and
`torch.cuda.empty_cache`. It never edits the user's files. The trace is
written through a buffer, flushed every FLUSH_SECONDS, at the end and
before a fork; a forked child (a fork-started DataLoader worker) writes
nothing.

Each event is one JSON line in the trace, with the user's source lines on
the stack at that moment (the frames outside torch, the standard library,
installed packages and this probe, innermost first):

    {"e":"start","torch":...,"python":...,"pid":...,"rank":r,"world":w}
    {"e":"rank","rank":r,"world":w}                    init_process_group ran
    {"e":"plan",...}                                   the runner's plan, echoed
    {"e":"fwd","n":k,"mod":"Net","grad":true,"train":false,"at":[[path,line],...]}
    {"e":"bwd","at":[...]}
    {"e":"step","n":k,"opt":i,"time_ms":..,"cleared":true,"backwards":b,"grad_norm":..,"device":"cuda",
     "alloc":..,"reserved":..,"peak":..,"rss":..,"cache_calls":1,"cache_noop":false,"ab":w,"at":[...]}
    {"e":"steady","n":k,"window":6}                    the empty_cache A/B's windows begin at step k
    {"e":"load","at":[...],"bytes":{"cuda:0":..},"alloc_before":{"0":..},"alloc_after":{"0":..},"dev":d}
    {"e":"iter","loop":id,"n":k,"alloc":..,"rss":..,"nodes":..}
    {"e":"cache","noop":false,"at":[...]}
    {"e":"ab103","at":[...],"grad_peak":..,"nograd_peak":..,"grad_kept":..,
     "nograd_kept":..,"saved_bytes":..}
    {"e":"end","why":"budget"|"exit"|"crash","error":...,"steps":..,"evals":..}

"opt" is the optimizer's index (in the order they were built), "backwards"
the backward calls since its previous step, "cleared" whether its gradients
were cleared since then (its zero_grad, or all its .grad None or zero before
one of those backwards; null before any), "grad_norm" the norm of what the
step applies (null when every .grad is None).

What the probe measures follows the plan's findings, so that a run pays
only for what its verdicts need: "grad_norm" for GPU001 and GPU002,
"cleared" for GPU001, the empty_cache A/B for GPU201, the GPU103
comparison for GPU103, graph nodes for the loops of GPU101 and GPU102.
Without a plan (GPULINT_PROBE_FINDINGS unset) it measures everything. The
"torch" line says what it measures ("measure").

Nothing on the hot path waits for the GPU. On CUDA a step's time is the
time between CUDA events recorded on the current stream at the end of each
step, and its gradient norm and clearing check stay on the device, copied
without blocking into pinned host memory; a step's line is written once
its event has completed (checked at each later step with `query()`, waited
for only when more than MAX_PENDING steps are outstanding, and at the end),
so step lines come a few steps behind the events around them, in order,
each with "t" from its step.

The empty_cache A/B (GPU201) waits for steady state: step times are
steady once the medians of the last three blocks of STEADY_BLOCK steps
are within STEADY_TOLERANCE of the latest one (three blocks, so that a
flat warm-up shorter than 15 steps is not taken for steady state). From the next step on, windows
of CACHE_WINDOW steps alternate, as written and with empty_cache() a
no-op (each step's "ab" is its window's index, odd ones a no-op), through
the whole run; the run is kept going until CACHE_PAIRS pairs of windows
ran. The judge (src/verify/paired.h) drops each window's first step and
its outlier steps, and compares the windows pair by pair.

Every rank: the first process of the run writes GPULINT_PROBE_TRACE; a
process started by it that is a rank (RANK or LOCAL_RANK in its
environment: torchrun, torch.distributed.run, accelerate launch) or a
multiprocessing spawn child (mp.spawn) writes GPULINT_PROBE_TRACE.<pid>,
and the runner merges them. With several ranks (WORLD_SIZE, or
init_process_group's world size, above 1) they agree through small files
beside the trace (GPULINT_PROBE_TRACE.ab, .stop, created once by the first
rank that decides): the step at which the A/B windows begin, so that the
ranks of one collective switch together, and the step at which all stop.

At the budget it writes the "end" line, flushes and leaves with
os._exit(EXIT_BUDGET), which the runner knows (a rank of several with
os._exit(0): its launcher then waits for the other ranks to stop).
"""
import atexit
import gc
import json
import math
import os
import sys
import sysconfig
import time

EXIT_BUDGET = 85
MAX_FORWARD_RECORDS = 5000
STACK_DEPTH = 8
CACHE_WINDOW = 6  # steps per window of the empty_cache A/B
CACHE_PAIRS = 4  # pairs of windows the run waits for
STEADY_BLOCK = 5  # steps per block of the steady-state test
STEADY_BLOCKS = 3
STEADY_TOLERANCE = 0.10
RANK_MARGIN = 3  # steps ahead that a decision shared between ranks takes effect
MAX_PENDING = 32  # step lines waiting for their CUDA event before the probe waits
FLUSH_SECONDS = 0.5  # the trace is flushed at most this often, and at the end and before a fork

_probe = None


def start(trace_path=None):
    """Installs the import watch; the hooks go in once torch is imported.
    `trace_path`: where this process writes (GPULINT_PROBE_TRACE)."""
    global _probe
    if _probe is None:
        _probe = Probe(os.environ, trace_path)
        sys.meta_path.insert(0, _TorchWatch())
        if "torch" in sys.modules:
            _probe.install(sys.modules["torch"])


# ---- Waiting for torch ------------------------------------------------------


class _TorchWatch:
    """A meta path finder that lets Python find torch as usual and calls the
    probe once the module has run."""

    def find_spec(self, name, path=None, target=None):
        if name != "torch" or _probe is None or _probe.torch is not None:
            return None
        sys.meta_path.remove(self)
        try:
            import importlib.util
            spec = importlib.util.find_spec(name)
        finally:
            sys.meta_path.insert(0, self)
        if spec is None or spec.loader is None or not hasattr(spec.loader, "exec_module"):
            return spec
        loader = spec.loader
        original = loader.exec_module

        def exec_module(module):
            original(module)
            try:
                _probe.install(module)
            except Exception as error:  # the user's run goes on without the probe
                _probe.emit({"e": "probe_error", "error": "%s: %s" % (type(error).__name__, error)})

        loader.exec_module = exec_module
        return spec


# ---- Steady state, and what ranks agree on ----------------------------------


def _median(values):
    ordered = sorted(values)
    middle = len(ordered) // 2
    return ordered[middle] if len(ordered) % 2 else (ordered[middle - 1] + ordered[middle]) / 2


class Steady:
    """Whether step times have settled: the medians of the last
    STEADY_BLOCKS blocks of STEADY_BLOCK step times within
    STEADY_TOLERANCE of the latest one (a median ignores a logging or
    evaluation step in a block)."""

    def __init__(self, tolerance=STEADY_TOLERANCE):
        self.times = []
        self.reached = False
        self.tolerance = tolerance

    def add(self, time_ms):
        """Adds a step's time; returns whether the times are steady now."""
        if self.reached or time_ms is None:
            return self.reached
        self.times.append(time_ms)
        span = STEADY_BLOCKS * STEADY_BLOCK
        if len(self.times) >= span:
            recent = self.times[-span:]
            medians = [_median(recent[i:i + STEADY_BLOCK]) for i in range(0, span, STEADY_BLOCK)]
            self.reached = all(abs(value - medians[-1]) <= self.tolerance * medians[-1] for value in medians)
        return self.reached


class Shared:
    """What the ranks of one run agree on: a value per key, decided once by
    the first rank that writes it (a file beside the trace, created with
    O_EXCL) and read by the others at their steps."""

    def __init__(self, base):
        self.base = base
        self.known = {}

    def decide(self, key, value):
        """Writes `value` unless a rank decided first; returns the value
        decided."""
        try:
            descriptor = os.open("%s.%s" % (self.base, key), os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        except FileExistsError:
            return self.read(key, wait=True)
        with os.fdopen(descriptor, "w") as out:
            out.write(json.dumps(value))
        self.known[key] = value
        return value

    def read(self, key, wait=False):
        """The value decided for `key`, or None; with `wait`, waits a little
        for a file another rank is writing."""
        if key in self.known:
            return self.known[key]
        path = "%s.%s" % (self.base, key)
        for _ in range(100 if wait else 1):
            try:
                with open(path) as source:
                    self.known[key] = json.loads(source.read())
                    return self.known[key]
            except (OSError, ValueError):
                if not wait:
                    return None
                time.sleep(0.001)
        return None


def _int_env(environ, name):
    try:
        return int(environ[name])
    except (KeyError, ValueError):
        return None


# ---- Where in the user's code -----------------------------------------------


class _Frames:
    """Tells the user's frames from library ones, and remembers the verdict
    per file name."""

    def __init__(self):
        skip = {os.path.dirname(os.path.abspath(__file__))}
        for key in ("stdlib", "platstdlib", "purelib", "platlib"):
            value = sysconfig.get_paths().get(key)
            if value:
                skip.add(os.path.realpath(value))
        self.skip = tuple(sorted(entry + os.sep for entry in skip))
        self.known = {}
        self.by_code = {}  # code object -> its file's real path, or None

    def add_skip(self, folder):
        self.skip = self.skip + (os.path.realpath(folder) + os.sep,)
        self.known.clear()
        self.by_code.clear()

    def path_of(self, filename):
        """The real path of a user's file, or None for a library's."""
        cached = self.known.get(filename, False)
        if cached is not False:
            return cached
        real = None
        if not filename.startswith("<"):
            real = os.path.realpath(filename)
            if real.startswith(self.skip) or "site-packages" in real or "dist-packages" in real:
                real = None
        self.known[filename] = real
        return real

    def stack(self, depth=2):
        """[[path, line], ...] of the user's frames, innermost first (the
        verdict per code object is cached: one dict look-up a frame)."""
        frame = sys._getframe(depth)
        out = []
        by_code = self.by_code
        while frame is not None:
            code = frame.f_code
            path = by_code.get(code, False)
            if path is False:
                if len(by_code) > 50000:  # code made at run time: do not keep it all alive
                    by_code.clear()
                path = by_code[code] = self.path_of(code.co_filename)
            if path is not None:
                out.append([path, frame.f_lineno])
                if len(out) == STACK_DEPTH:
                    break
            frame = frame.f_back
        return out


def _cuda_memory_stats(torch):
    """(allocated, reserved, peak allocated) bytes of the current device
    from one read of the allocator's statistics, or None where this PyTorch
    has no such read."""
    read = getattr(torch._C, "_cuda_memoryStats", None)
    if read is None:
        return None
    try:
        stats = read(torch.cuda.current_device())
        allocated = stats["allocated_bytes"]["all"]
        return allocated["current"], stats["reserved_bytes"]["all"]["current"], allocated["peak"]
    except (RuntimeError, TypeError, KeyError):
        return None


def _rss():
    try:
        with open("/proc/self/statm") as statm:
            return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return None


# ---- The plan: findings and loops -------------------------------------------


class Loop:
    """A loop of the user's code (path, first and last line) and how its
    iterations are counted: the first event seen inside it, and not inside
    a loop nested in it, is its anchor; each time the anchor recurs, an
    iteration begins."""

    def __init__(self, record):
        self.id = record["id"]
        self.path = record["path"]
        self.start = record["start"]
        self.end = record["end"]
        self.inner = []  # loops of the same file nested in this one
        self.anchor = None
        self.iterations = 0
        self.tracked = False  # a finding points into it: sample graph nodes

    def line_in(self, stack):
        for path, line in stack:
            if path == self.path and self.start <= line <= self.end:
                return line
        return None

    def owns(self, line):
        return not any(inner.start <= line <= inner.end for inner in self.inner)


class _SinceStep:
    """What happened to one optimizer's gradients since its last step."""

    def __init__(self, index):
        self.index = index
        self.backwards = 0
        self.cleared = False  # its zero_grad ran, or a backward found them empty
        self.empty_on_device = None  # a bool tensor: a backward found them all zero
        self.unknown = False  # a check failed (sparse gradients, ...)

    def note_empty(self, torch, empty):
        """`empty`: True, False, None (could not tell) or a bool tensor
        still on the device."""
        if empty is None:
            self.unknown = True
        elif empty is True or empty is False:
            self.cleared = self.cleared or empty
        elif self.empty_on_device is None:
            self.empty_on_device = empty
        else:
            self.empty_on_device = torch.logical_or(self.empty_on_device, empty)


class _StepLine:
    """A step's line waiting for what the GPU measures: its event (the
    step's end on the current stream), the previous step's event, and the
    pinned slot its device values are copied into."""

    def __init__(self, record, later):
        self.record = record
        self.later = later
        self.event = self.previous = self.slot = None
        self.fields = []


def _plain(value):
    """A tensor read on the host (bools for bool tensors), or the value; a
    float that is not finite as "inf", "-inf" or "nan" (JSON has none)."""
    if hasattr(value, "item"):
        value = value.item()
    if isinstance(value, float) and not math.isfinite(value):
        return "nan" if math.isnan(value) else "inf" if value > 0 else "-inf"
    return value


class Finding:
    def __init__(self, record):
        self.code = record["code"]
        self.path = record["path"]
        self.line = record["line"]
        self.loop = record.get("loop")  # loop id or None
        self.reached = False
        self.done = False


# ---- The probe --------------------------------------------------------------


class Probe:
    def __init__(self, environ, trace_path=None):
        self.torch = None
        self.began = time.monotonic()
        self.out = open(trace_path or environ["GPULINT_PROBE_TRACE"], "w")
        self.flushed_at = time.monotonic()
        self.rank = _int_env(environ, "RANK")
        if self.rank is None:
            self.rank = _int_env(environ, "LOCAL_RANK")
        self.world = _int_env(environ, "WORLD_SIZE") or 1
        self.shared = Shared(environ["GPULINT_PROBE_TRACE"])
        self.steady = Steady(float(environ.get("GPULINT_PROBE_STEADY_TOLERANCE", STEADY_TOLERANCE)))
        self.cache_window = None  # the A/B window of the step running now
        self.ab_start = None  # the first step of the first window
        self.stop_at = None  # with several ranks: the step all stop at
        self.load_after = False  # a torch.load ran since the last step
        self.budget_steps = int(environ.get("GPULINT_PROBE_STEPS", "50"))
        self.budget_evals = int(environ.get("GPULINT_PROBE_EVAL_STEPS", "20"))
        self.budget_seconds = float(environ.get("GPULINT_PROBE_SECONDS", "300"))
        self.frames = _Frames()
        self.findings, self.loops = [], []
        self.steps = self.evals = self.forwards = 0
        self.eval_anchor = None
        self.depth = 0  # module forwards running now
        self.busy = False  # the probe itself is calling torch
        self.in_backward = False
        self.ended = False
        self.optimizers = []
        self.since_step = {}  # id(optimizer) -> _SinceStep
        self.last_step_at = None
        self.step_peak = 0
        self.cache_calls = 0
        self.cache_first_step = None
        self.cache_noop = False
        self.ab103_done = set()
        self.pending_ab = None
        self.measure = {"grad_norm", "cleared", "cache_ab", "load"}  # everything without a plan
        self.on_cuda = False
        self.steps_waiting = []  # _StepLine, oldest first
        self.last_event = None
        self.spare_events = []
        self.pinned = None  # MAX_PENDING + 1 slots of two floats, host memory the GPU copies into
        self.pinned_next = 0
        self.emit({"e": "start", "python": sys.version.split()[0], "pid": os.getpid(), "rank": self.rank,
                   "world": self.world, "argv": sys.argv[:8], "budget": {"steps": self.budget_steps, "evals": self.budget_evals,
                                                     "seconds": self.budget_seconds}})
        self.read_plan(environ.get("GPULINT_PROBE_FINDINGS"))
        atexit.register(self.on_exit)
        if hasattr(os, "register_at_fork"):
            os.register_at_fork(before=self.before_fork, after_in_child=self.after_fork_in_child)
        self.previous_excepthook = sys.excepthook
        sys.excepthook = self.on_exception

    def now_ms(self):
        return round((time.monotonic() - self.began) * 1e3, 3)

    def emit(self, record, stamp=True):
        """Writes one line into the trace's buffer (flushed by
        flush_if_due, at the end and before a fork)."""
        if stamp:
            record["t"] = self.now_ms()
        self.out.write(json.dumps(record, separators=(",", ":")) + "\n")

    def flush_if_due(self):
        now = time.monotonic()
        if now - self.flushed_at >= FLUSH_SECONDS:
            self.out.flush()
            self.flushed_at = now

    def before_fork(self):
        """Nothing buffered is copied into a forked child."""
        self.out.flush()

    def after_fork_in_child(self):
        """A forked child (a fork-started DataLoader worker or process)
        shares the trace's file and the probe's state: it writes nothing
        and measures nothing, and never stops at the budget."""
        self.ended = True
        self.out = open(os.devnull, "w")

    def read_plan(self, path):
        if not path:
            return
        with open(path) as source:
            plan = json.load(source)
        plan["e"] = "plan"
        self.emit(plan)
        self.loops = [Loop(record) for record in plan.get("loops", [])]
        for loop in self.loops:
            loop.inner = [other for other in self.loops if other is not loop and other.path == loop.path and
                          loop.start <= other.start and other.end <= loop.end]
        self.findings = [Finding(record) for record in plan.get("findings", [])]
        codes = {finding.code for finding in self.findings}
        self.measure = set()
        if codes & {"GPU001", "GPU002"}:
            self.measure.add("grad_norm")
        if "GPU001" in codes:
            self.measure.add("cleared")
        if "GPU201" in codes:
            self.measure.add("cache_ab")
        if "GPU501" in codes:
            self.measure.add("load")
        for finding in self.findings:
            if finding.code in ("GPU101", "GPU102") and finding.loop is not None and 0 <= finding.loop < len(self.loops):
                self.loops[finding.loop].tracked = True

    # ---- Installing the hooks ----

    def install(self, torch):
        if self.torch is not None:
            return
        self.torch = torch
        self.frames.add_skip(os.path.dirname(torch.__file__))
        self.emit({"e": "torch", "torch": torch.__version__, "cuda": torch.version.cuda,
                   "measure": sorted(self.measure)})
        self.hook_forwards(torch)
        self.hook_optimizers(torch)
        self.hook_backward(torch)
        self.hook_zero_grad(torch)
        self.hook_empty_cache(torch)
        self.hook_distributed(torch)
        if "load" in self.measure:
            self.hook_load(torch)

    def hook_forwards(self, torch):
        """Module forwards: nn.Module.__call__ wrapped, so that a top-level
        call (no module forward running) is an event and a submodule's
        call costs one test. Global forward hooks would send every
        submodule of every forward through nn.Module's hooked path.
        A subclass that overrides __call__ reaches the wrapper through
        super().__call__ (torch.compile's OptimizedModule does); one that
        never calls it is not seen. While torch.compile traces, calls go
        straight through."""
        probe, original = self, torch.nn.Module.__call__
        compiler = getattr(torch, "compiler", None)
        is_compiling = getattr(compiler, "is_compiling", None) or (lambda: False)

        def __call__(self, *args, **kwargs):
            if probe.depth or probe.busy or probe.ended or is_compiling():
                return original(self, *args, **kwargs)
            probe.depth = 1
            try:
                probe.on_forward_begin(self, args, kwargs)
                output = original(self, *args, **kwargs)
            except BaseException:
                probe.depth = 0
                probe.ab103_abandon(self)
                raise
            probe.depth = 0
            probe.on_forward_end(self, args, kwargs, output)
            return output

        __call__.__wrapped__ = original
        torch.nn.Module.__call__ = __call__

    def hook_optimizers(self, torch):
        import importlib
        optimizer_mod = importlib.import_module("torch.optim.optimizer")
        optimizer_class = torch.optim.Optimizer
        global_hooks = getattr(optimizer_mod, "register_optimizer_step_pre_hook", None)
        probe = self
        original_init = optimizer_class.__init__

        def __init__(self, *args, **kwargs):
            original_init(self, *args, **kwargs)
            probe.since_step[id(self)] = _SinceStep(len(probe.optimizers))
            probe.optimizers.append(self)
            if global_hooks is None and "step" not in vars(self):
                probe.wrap_step(self)

        optimizer_class.__init__ = __init__
        if global_hooks is not None:
            global_hooks(lambda optimizer, args, kwargs: self.on_step_pre(optimizer))
            optimizer_mod.register_optimizer_step_post_hook(
                lambda optimizer, args, kwargs: self.on_step(optimizer))

    def wrap_step(self, optimizer):
        """torch < 2.0: a bound method in the instance, so that an LR
        scheduler can wrap it again (it needs __self__ and __func__)."""
        import types
        probe, original = self, type(optimizer).step

        def step(self, *args, **kwargs):
            probe.on_step_pre(self)
            result = original(self, *args, **kwargs)
            probe.on_step(self)
            return result

        optimizer.step = types.MethodType(step, optimizer)

    def hook_backward(self, torch):
        probe = self
        tensor_backward, autograd_backward = torch.Tensor.backward, torch.autograd.backward

        def backward(self, *args, **kwargs):
            return probe.around_backward(tensor_backward, self, *args, **kwargs)

        def autograd(*args, **kwargs):
            return probe.around_backward(autograd_backward, *args, **kwargs)

        torch.Tensor.backward = backward
        torch.autograd.backward = autograd

    def hook_zero_grad(self, torch):
        probe = self
        for owner in (torch.optim.Optimizer, torch.nn.Module):
            original = owner.zero_grad

            def zero_grad(self, *args, _original=original, **kwargs):
                since = probe.since_step.get(id(self))
                if since is not None:
                    since.cleared = True
                return _original(self, *args, **kwargs)

            owner.zero_grad = zero_grad

    def hook_empty_cache(self, torch):
        probe, original = self, torch.cuda.empty_cache

        def empty_cache():
            if probe.ended:
                return original()
            probe.cache_calls += 1
            if len(probe.trace_cache_calls) < 200:
                probe.trace_cache_calls.append(1)
                probe.emit({"e": "cache", "noop": probe.cache_noop, "at": probe.frames.stack()})
            if not probe.cache_noop:
                original()

        self.trace_cache_calls = []
        torch.cuda.empty_cache = empty_cache

    def hook_distributed(self, torch):
        """init_process_group: the rank and world size (mp.spawn's workers
        have no RANK in their environment)."""
        distributed = getattr(torch, "distributed", None)
        original = getattr(distributed, "init_process_group", None) if distributed else None
        if original is None:
            return
        probe = self

        def init_process_group(*args, **kwargs):
            result = original(*args, **kwargs)
            try:
                probe.rank, probe.world = distributed.get_rank(), distributed.get_world_size()
                probe.emit({"e": "rank", "rank": probe.rank, "world": probe.world})
            except Exception:  # the user's run goes on
                pass
            return result

        distributed.init_process_group = init_process_group

    def hook_load(self, torch):
        """torch.load: where the loaded tensors went (bytes per device) and
        this process's allocated memory on each CUDA device before and
        after (GPU501); the next step's line has it again."""
        probe, original = self, torch.load

        def load(*args, **kwargs):
            if probe.busy or probe.ended:
                return original(*args, **kwargs)
            before = probe.device_memory()
            result = original(*args, **kwargs)
            try:
                record = {"e": "load", "at": probe.frames.stack(), "bytes": probe.tensor_bytes(result),
                          "alloc_before": before, "alloc_after": probe.device_memory(),
                          "map_location": "map_location" in kwargs or len(args) > 1}
                if probe.cuda():
                    record["dev"] = torch.cuda.current_device()
                probe.emit(record)
                probe.load_after = True
                probe.mark_reached(record["at"])
            except Exception as error:  # the user's run goes on
                probe.emit({"e": "probe_error", "error": "load: %s: %s" % (type(error).__name__, error)})
            return result

        torch.load = load

    def tensor_bytes(self, value):
        """Bytes of the tensors in `value` (dicts, lists, tuples, modules'
        state), per device ("cpu", "cuda:0"), each storage once."""
        torch, seen, out, stack = self.torch, set(), {}, [value]
        while stack:
            item = stack.pop()
            if isinstance(item, torch.Tensor):
                storage = item.untyped_storage() if hasattr(item, "untyped_storage") else item.storage()
                key = (str(item.device), storage.data_ptr())
                if key not in seen:
                    seen.add(key)
                    size = storage.nbytes() if hasattr(storage, "nbytes") else storage.size() * item.element_size()
                    out[str(item.device)] = out.get(str(item.device), 0) + size
            elif isinstance(item, dict):
                stack.extend(item.values())
            elif isinstance(item, (list, tuple)):
                stack.extend(item)
        return out

    def device_memory(self):
        """This process's allocated bytes on each CUDA device it has used
        ({"0": ..}); {} before CUDA is initialized. Reads the allocator's
        statistics only: no device is touched."""
        cuda = self.torch.cuda
        if not (cuda.is_available() and cuda.is_initialized()):
            return {}
        out = {}
        for index in range(cuda.device_count()):
            try:
                allocated = cuda.memory_allocated(index)
            except (RuntimeError, AssertionError):
                continue
            if allocated:
                out[str(index)] = allocated
        return out

    # ---- Memory ----

    def cuda(self):
        """Whether the run uses CUDA (once it has, it does)."""
        if not self.on_cuda:
            cuda = self.torch.cuda
            self.on_cuda = cuda.is_available() and cuda.is_initialized()
        return self.on_cuda

    def memory(self, peak=False):
        """The allocator's numbers (one read of its statistics, no
        synchronization) on CUDA, else the resident memory; with `peak`,
        the peak since the last reset too, then a reset."""
        if not self.cuda():
            return {"device": "cpu", "rss": _rss()}
        cuda = self.torch.cuda
        stats = _cuda_memory_stats(self.torch)
        if stats is not None:
            record = {"device": "cuda", "alloc": stats[0], "reserved": stats[1]}
            top = stats[2]
        else:
            record = {"device": "cuda", "alloc": cuda.memory_allocated(), "reserved": cuda.memory_reserved()}
            top = cuda.max_memory_allocated() if peak else 0
        if peak:
            record["peak"] = max(self.step_peak, top)
            cuda.reset_peak_memory_stats()
            self.step_peak = 0
        return record

    def live_graph_nodes(self):
        """Autograd nodes reachable from every live tensor (slow: sampled)."""
        import warnings
        torch = self.torch
        seen = {}
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            stack = [obj.grad_fn for obj in gc.get_objects()
                     if isinstance(obj, torch.Tensor) and obj.grad_fn is not None]
        while stack:
            node = stack.pop()
            if node is None or id(node) in seen:
                continue
            seen[id(node)] = node
            stack.extend(edge[0] for edge in node.next_functions)
        return len(seen)

    # ---- Events ----

    def on_forward_begin(self, module, args, kwargs):
        """A top-level forward is about to run (self.depth is 1)."""
        torch = self.torch
        stack = self.frames.stack(3)
        grad, train = torch.is_grad_enabled(), module.training
        self.forwards += 1
        if self.forwards <= MAX_FORWARD_RECORDS:
            self.emit({"e": "fwd", "n": self.forwards, "mod": type(module).__name__, "grad": grad, "train": train,
                       "at": stack})
        self.mark_reached(stack)
        self.count_iterations("fwd", stack)
        if not grad or not train:
            self.count_eval(stack)
        if grad and not train:
            self.maybe_ab103_begin(module, stack)
        self.check_budget()

    def on_forward_end(self, module, args, kwargs, output):
        """A top-level forward returned (self.depth is 0 again)."""
        if self.pending_ab is not None and self.pending_ab["module"] is module:
            self.ab103_finish(module, args, kwargs)

    def around_backward(self, function, *args, **kwargs):
        if self.in_backward or self.busy or self.ended:
            return function(*args, **kwargs)
        self.in_backward = True
        try:
            stack = self.frames.stack(3)
            self.note_backward()
            self.emit({"e": "bwd", "at": stack})
            self.mark_reached(stack)
            self.count_iterations("bwd", stack)
            return function(*args, **kwargs)
        finally:
            self.in_backward = False

    def note_backward(self):
        """Before a backward runs: for each optimizer whose gradients were
        not yet seen cleared since its last step, whether they are now
        (every trained parameter's .grad None or zero: a module's
        zero_grad, `p.grad = None`). Checked at every backward, so that
        the backward of another optimizer's loss (a GAN's discriminator)
        before this one's zero_grad does not count against it."""
        check = "cleared" in self.measure
        for optimizer in self.optimizers:
            since = self.since_step[id(optimizer)]
            since.backwards += 1
            if check and not since.cleared:
                since.note_empty(self.torch, self.gradients_empty(optimizer))

    def gradients_empty(self, optimizer):
        """True when every trained parameter's .grad is None, else whether
        all are zero: a bool tensor on their device (one fused max-norm,
        read with the step's line) where it can be, else a bool."""
        grads = [p.grad for group in optimizer.param_groups for p in group["params"]
                 if p.requires_grad and p.grad is not None]
        if not grads:
            return True
        self.busy = True
        try:
            norm = self.norm_of(grads, float("inf"))
            if norm is None:
                return None
            return norm.eq(0) if norm.is_cuda else bool(norm == 0)
        finally:
            self.busy = False

    def on_step_pre(self, optimizer):
        self.grad_norm = None
        if self.ended or "grad_norm" not in self.measure:
            return
        self.busy = True
        try:
            grads = [p.grad.detach() for group in optimizer.param_groups for p in group["params"]
                     if p.grad is not None]
            self.grad_norm = self.norm_of(grads) if grads else None
        finally:
            self.busy = False

    def norm_of(self, grads, order=2.0):
        """The norm (`order` 2 or inf) of all of `grads`, a float32 tensor
        left where they are (no synchronization): one fused kernel where
        PyTorch has it, else one norm per tensor."""
        torch = self.torch
        foreach = getattr(torch, "_foreach_norm", None)
        if foreach is not None:
            try:
                return torch.stack([norm.float() for norm in foreach(grads, order)]).norm(order)
            except (RuntimeError, TypeError):  # tensors on several devices, sparse gradients
                pass
        device = grads[0].device
        try:
            return torch.stack([grad.float().norm(order).to(device) for grad in grads]).norm(order)
        except (RuntimeError, TypeError):  # not measured, but the user's run goes on
            return None

    def on_step(self, optimizer):
        if self.ended:
            return
        self.steps += 1
        stack = self.frames.stack()
        since = self.since_step.get(id(optimizer)) or _SinceStep(-1)
        record = {"e": "step", "n": self.steps, "opt": since.index, "at": stack, "backwards": since.backwards,
                  "cache_calls": self.cache_calls, "cache_noop": self.cache_noop}
        if "cache_ab" in self.measure:
            record["ab"] = self.cache_window
        if self.load_after:
            self.load_after = False
            record["alloc_devices"] = self.device_memory()
        later = {}  # field -> a tensor, read when the line is written
        if "cleared" in self.measure:
            record["cleared"] = None  # no backward yet, or read later
            if since.backwards and since.unknown and not since.cleared:
                pass
            elif since.backwards and (since.cleared or since.empty_on_device is None):
                record["cleared"] = since.cleared
            elif since.backwards:
                later["cleared"] = since.empty_on_device
        if "grad_norm" in self.measure:
            record["grad_norm"] = None
            if self.grad_norm is not None:
                later["grad_norm"] = self.grad_norm
        record.update(self.memory(peak=True))
        if self.world > 1 and self.cuda():
            record["dev"] = self.torch.cuda.current_device()
        self.queue_step(record, later)
        self.mark_reached(stack)
        self.count_iterations("step", stack)
        self.next_cache_window()
        if id(optimizer) in self.since_step:
            self.since_step[id(optimizer)] = _SinceStep(since.index)
        self.cache_calls = 0
        self.check_budget()

    # ---- Step lines, written once the GPU got there ----

    def queue_step(self, record, later):
        """Queues the step's line; on CUDA an event on the current stream
        marks the step's end, `later`'s tensors are copied into pinned host
        memory before it, and the line waits for it. Off CUDA the line is
        written now."""
        record["t"] = self.now_ms()
        line = _StepLine(record, later)
        if self.cuda():
            self.busy = True
            try:
                self.copy_later(line)
                line.event = self.spare_events.pop() if self.spare_events else \
                    self.torch.cuda.Event(enable_timing=True)
                line.event.record()
                line.previous, self.last_event = self.last_event, line.event
            finally:
                self.busy = False
        else:
            now = time.monotonic()
            if self.last_step_at is not None:
                record["time_ms"] = round((now - self.last_step_at) * 1e3, 4)
                self.steady.add(record["time_ms"])
            self.last_step_at = now
            for field, value in later.items():
                record[field] = _plain(value)
        self.steps_waiting.append(line)
        self.write_steps(wait=len(self.steps_waiting) > MAX_PENDING)

    def copy_later(self, line):
        """Starts the copy of the line's device values into a slot of pinned
        memory (values on another device, or on the CPU, are read now)."""
        torch = self.torch
        device = torch.cuda.current_device()
        values = {}
        for field, value in line.later.items():
            if value.is_cuda and value.device.index == device:
                values[field] = value
            else:
                line.record[field] = _plain(value)
        if not values:
            return
        if self.pinned is None:
            self.pinned = torch.zeros((MAX_PENDING + 2, 2), dtype=torch.float32, pin_memory=True)
        slot = self.pinned[self.pinned_next]
        self.pinned_next = (self.pinned_next + 1) % self.pinned.shape[0]
        line.fields = list(values)
        slot[:len(values)].copy_(torch.stack([value.float() for value in values.values()]), non_blocking=True)
        line.slot = slot

    def write_steps(self, wait=False):
        """Writes the queued lines whose event has completed, oldest first;
        with `wait`, waits for the oldest one first."""
        written = False
        while self.steps_waiting:
            line = self.steps_waiting[0]
            if line.event is not None and not line.event.query():
                if not wait:
                    break
                line.event.synchronize()
            wait = False
            self.steps_waiting.pop(0)
            self.finish_line(line)
            self.emit(line.record, stamp=False)
            written = True
        if written:
            self.flush_if_due()

    def finish_line(self, line):
        """Fills in what the GPU measured for a line whose event completed."""
        record = line.record
        if line.slot is not None:
            values = line.slot.tolist()
            for index, field in enumerate(line.fields):
                value = values[index]
                record[field] = value != 0 if field == "cleared" else _plain(value)
        if line.previous is not None:
            if not line.previous.query():
                line.previous.synchronize()
            record["time_ms"] = round(line.previous.elapsed_time(line.event), 4)
            self.spare_events.append(line.previous)
            self.steady.add(record["time_ms"])

    def write_all_steps(self):
        """At the end: every queued line, waiting for the GPU; what it can
        no longer read (a failed device) is left out of the line."""
        while self.steps_waiting:
            try:
                self.write_steps(wait=True)
            except Exception:  # the device failed: write the rest as they are
                for line in self.steps_waiting:
                    self.emit(line.record, stamp=False)
                self.steps_waiting = []

    # ---- Findings reached, loops, evaluation ----

    def mark_reached(self, stack):
        for finding in self.findings:
            if not finding.reached and [finding.path, finding.line] in stack:
                finding.reached = True

    def count_iterations(self, kind, stack):
        """Counts an iteration of each loop whose anchor this event is."""
        for loop in self.loops:
            line = loop.line_in(stack)
            if line is None or not loop.owns(line):
                continue
            key = (kind, line)
            if loop.anchor is None:
                loop.anchor = key
            if loop.anchor != key:
                continue
            loop.iterations += 1
            record = {"e": "iter", "loop": loop.id, "n": loop.iterations}
            record.update(self.memory())
            if loop.tracked and (loop.iterations <= 12 or loop.iterations % 4 == 0):
                self.busy = True
                try:
                    record["nodes"] = self.live_graph_nodes()
                finally:
                    self.busy = False
            self.emit(record)
            for finding in self.findings:
                if finding.loop == loop.id:
                    finding.reached = True

    def count_eval(self, stack):
        key = tuple(stack[0]) if stack else None
        if self.eval_anchor is None:
            self.eval_anchor = key
        if key == self.eval_anchor:
            self.evals += 1

    # ---- GPU103: the same forward again under no_grad ----

    def maybe_ab103_begin(self, module, stack):
        """At the first eval-mode forward with grad on at a GPU103 finding's
        line: counts what its graph saves and its peak; ab103_finish runs
        it again under no_grad once it returned."""
        for finding in self.findings:
            if finding.code != "GPU103" or finding.line in self.ab103_done:
                continue
            if [finding.path, finding.line] not in stack:
                continue
            self.ab103_done.add(finding.line)
            torch = self.torch
            if any(isinstance(m, torch.nn.modules.batchnorm._BatchNorm) and m.training for m in module.modules()):
                self.emit({"e": "ab103", "at": stack, "skipped": "a batch norm in training mode would update its statistics"})
                return
            state = {"module": module, "at": stack, "saved": {}}
            params = {p.data_ptr() for p in module.parameters()}
            saved = state["saved"]

            def pack(tensor):
                if tensor.data_ptr() not in params:
                    saved[tensor.data_ptr()] = tensor.element_size() * tensor.nelement()
                return tensor

            state["hooks"] = torch.autograd.graph.saved_tensors_hooks(pack, lambda tensor: tensor)
            state["hooks"].__enter__()
            if self.cuda():
                self.step_peak = max(self.step_peak, torch.cuda.max_memory_allocated())
                torch.cuda.reset_peak_memory_stats()
                state["base"] = torch.cuda.memory_allocated()
            self.pending_ab = state
            return

    def ab103_abandon(self, module):
        """The forward being measured raised: the comparison is dropped,
        with why."""
        if self.pending_ab is None or self.pending_ab["module"] is not module:
            return
        state, self.pending_ab = self.pending_ab, None
        state["hooks"].__exit__(None, None, None)
        self.emit({"e": "ab103", "at": state["at"], "skipped": "the forward raised"})

    def ab103_finish(self, module, args, kwargs):
        """The measured forward returned: the same call again, with the
        same inputs (keyword ones too) and random state, under no_grad."""
        state, self.pending_ab = self.pending_ab, None
        state["hooks"].__exit__(None, None, None)
        torch = self.torch
        record = {"e": "ab103", "at": state["at"], "saved_bytes": sum(state["saved"].values()),
                  "device": "cuda" if self.cuda() else "cpu"}
        if self.cuda():
            record["grad_peak"] = torch.cuda.max_memory_allocated() - state["base"]
            record["grad_kept"] = torch.cuda.memory_allocated() - state["base"]
        self.busy = True
        rng = torch.get_rng_state()
        cuda_rng = torch.cuda.get_rng_state_all() if self.cuda() else None
        try:
            if self.cuda():
                torch.cuda.reset_peak_memory_stats()
                base = torch.cuda.memory_allocated()
            with torch.no_grad():
                again = module(*args, **kwargs)
            if self.cuda():
                record["nograd_peak"] = torch.cuda.max_memory_allocated() - base
                record["nograd_kept"] = torch.cuda.memory_allocated() - base
            del again
        except Exception as error:  # the forward needed keyword arguments, ...
            record["error"] = "%s: %s" % (type(error).__name__, error)
        finally:
            torch.set_rng_state(rng)
            if cuda_rng is not None:
                torch.cuda.set_rng_state_all(cuda_rng)
            self.busy = False
        self.emit(record)

    # ---- GPU201: empty_cache made a no-op for alternate windows ----

    def next_cache_window(self):
        """Sets the A/B window of the next step (GPU201 only): none until
        empty_cache() was called and step times are steady, then windows
        of CACHE_WINDOW steps, as written and with empty_cache() a no-op
        in turn, to the end of the run. With several ranks the first to
        be steady picks the step the windows begin at, for all."""
        if "cache_ab" not in self.measure:
            return
        if self.cache_first_step is None and self.cache_calls:
            self.cache_first_step = self.steps
        following = self.steps + 1
        if self.ab_start is None and self.world > 1:
            self.ab_start = self.shared.read("ab")
        if self.ab_start is None and self.cache_first_step is not None and self.steady.reached:
            start = following + (RANK_MARGIN if self.world > 1 else 0)
            self.ab_start = self.shared.decide("ab", start) if self.world > 1 else start
        if self.ab_start is not None and self.ab_start == following:
            self.emit({"e": "steady", "n": following, "window": CACHE_WINDOW})
        if self.ab_start is None or following < self.ab_start:
            self.cache_window, self.cache_noop = None, False
            return
        self.cache_window = (following - self.ab_start) // CACHE_WINDOW
        self.cache_noop = self.cache_window % 2 == 1

    def cache_pending(self):
        if self.cache_first_step is None:
            return False
        return self.ab_start is None or self.steps - self.ab_start + 1 < 2 * CACHE_PAIRS * CACHE_WINDOW

    # ---- Stopping ----

    def pending(self):
        """Whether a finding still waits for what it needs."""
        for finding in self.findings:
            if not finding.reached:
                return True
            if finding.code == "GPU103" and finding.line not in self.ab103_done:
                return True
            if finding.code == "GPU201" and self.cache_pending():
                return True
            if finding.loop is not None and 0 <= finding.loop < len(self.loops):
                if self.loops[finding.loop].iterations < min(self.budget_steps, self.budget_evals):
                    return True
        return False

    def check_budget(self):
        if self.ended or self.pending_ab is not None:
            return
        elapsed = time.monotonic() - self.began
        steps_done, evals_done = self.steps >= self.budget_steps, self.evals >= self.budget_evals
        why = None
        if elapsed >= self.budget_seconds:
            why = "seconds"
        elif steps_done and evals_done:
            why = "steps"
        elif (steps_done or evals_done) and not self.pending():
            why = "steps" if steps_done else "evaluation iterations"
        elif self.forwards >= 40 * max(self.budget_steps, self.budget_evals):
            why = "forwards"
        if self.world > 1:
            why = self.rank_stop(why)
        if why:
            self.end("budget", budget=why)
            sys.stdout.flush()
            sys.stderr.flush()
            # a rank leaves with 0, so that its launcher (torchrun, mp.spawn)
            # waits for the others rather than killing them as failed
            os._exit(0 if self.world > 1 else EXIT_BUDGET)

    def rank_stop(self, why):
        """With several ranks: a rank that wants to stop picks a step a
        little ahead for all (so that none waits in a collective for one
        that left); each stops once it got there. Returns why to stop now,
        or None."""
        if self.stop_at is None:
            self.stop_at = self.shared.read("stop")
            if self.stop_at is None and why:
                self.stop_at = self.shared.decide("stop", {"step": self.steps + RANK_MARGIN, "why": why})
        if self.stop_at is None or self.steps < self.stop_at["step"]:
            return None
        return self.stop_at["why"]

    def end(self, why, **extra):
        if self.ended:
            return
        self.ended = True
        self.write_all_steps()
        record = {"e": "end", "why": why, "steps": self.steps, "evals": self.evals, "forwards": self.forwards,
                  "reached": [[f.path, f.line] for f in self.findings if f.reached]}
        record.update(extra)
        self.emit(record)
        self.out.flush()

    def on_exception(self, kind, value, trace):
        import traceback
        last = traceback.format_exception_only(kind, value)[-1].strip()
        where = [[self.frames.path_of(f.filename), f.lineno] for f in traceback.extract_tb(trace)]
        where = [entry for entry in where if entry[0] is not None]
        self.end("crash", error=last, at=where[-1:] if where else [])
        self.previous_excepthook(kind, value, trace)

    def on_exit(self):
        self.end("exit")
