"""gpulint: finds GPU-memory and training-loop pitfalls in PyTorch training scripts.

The tool is a native program installed as the `gpulint` script; this package
only lets `python -m gpulint` run it.
"""
