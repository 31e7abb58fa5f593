"""sitecustomize.py — how `gpulint verify --run` puts its probe into the
user's Python: the runner adds this folder to the front of PYTHONPATH, so
Python imports this module at startup.

It first runs the sitecustomize that Python would have imported without
this folder (the distribution's, a virtualenv's, the user's own), so the
interpreter behaves as it would have. Then, only when the runner's
GPULINT_PROBE_TRACE variable is set and no other process of the run has
taken the probe (a DataLoader worker, a launcher's children), it starts the
probe, which waits for `import torch` before it touches anything.
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


def _start():
    if not os.environ.get("GPULINT_PROBE_TRACE"):
        return
    claimed = os.environ.get("GPULINT_PROBE_CLAIMED")
    if claimed and claimed != str(os.getpid()):
        return  # a child process of the run: the probe watches the first one
    os.environ["GPULINT_PROBE_CLAIMED"] = str(os.getpid())
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    try:
        import gpulint_probe
    finally:
        del sys.path[0]
    gpulint_probe.start()


_chain()
_start()
