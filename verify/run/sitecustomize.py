"""sitecustomize.py — how `gpulint verify --run` puts its probe into the
user's Python: the runner adds this folder to the front of PYTHONPATH, so
Python imports this module at startup.

It first runs the sitecustomize that Python would have imported without
this folder (the distribution's, a virtualenv's, the user's own), so the
interpreter behaves as it would have. Then, only when the runner's
GPULINT_PROBE_TRACE variable is set, it starts the probe, which waits for
`import torch` before it touches anything: in the run's first process,
and in each rank that process starts (a launcher's workers, mp.spawn's
children), each writing its own trace; other child processes are left
alone.
"""
import importlib.machinery
import importlib.util
import os
import sys


def _chain():
    """Imports the next sitecustomize on sys.path, under this module's name."""
    here = os.path.dirname(os.path.abspath(__file__))
    path = [entry for entry in sys.path if os.path.abspath(entry or ".") != here]
    spec = importlib.machinery.PathFinder.find_spec("sitecustomize", path)
    if spec is None or spec.loader is None:
        return
    module = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(module)
    except Exception as error:  # as Python's own site.py does: warn, go on
        sys.stderr.write("Error in sitecustomize; set PYTHONVERBOSE for traceback:\n%s: %s\n"
                         % (type(error).__name__, error))
        return
    for name, value in vars(module).items():
        if not name.startswith("__"):
            globals().setdefault(name, value)


def _is_rank(environ, argv):
    """Whether a process started by the run's first one is a rank of it:
    a launcher's worker (RANK or LOCAL_RANK set: torchrun,
    torch.distributed.run, accelerate launch) or a multiprocessing spawn
    child (mp.spawn; a DataLoader worker started with spawn is one too,
    and its trace, with no step or forward in it, is left out)."""
    return "RANK" in environ or "LOCAL_RANK" in environ or "--multiprocessing-fork" in argv


def _start():
    trace = os.environ.get("GPULINT_PROBE_TRACE")
    if not trace:
        return
    claimed = os.environ.get("GPULINT_PROBE_CLAIMED")
    if claimed and claimed != str(os.getpid()):
        if not _is_rank(os.environ, getattr(sys, "argv", [])):
            return  # a child that is no rank (a compile worker, ...): not watched
        trace = "%s.%d" % (trace, os.getpid())
    else:
        os.environ["GPULINT_PROBE_CLAIMED"] = str(os.getpid())
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    try:
        import gpulint_probe
    finally:
        del sys.path[0]
    gpulint_probe.start(trace)


_chain()
_start()
