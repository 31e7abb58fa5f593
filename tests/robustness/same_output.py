#!/usr/bin/env python3
"""Output is the same for every -j and with the result cache, over a
generated corpus larger than the command-line tests use.

    same_output.py GPULINT SOURCE_ROOT

Writes about 1,500 files into a fresh folder: every rule fixture and
realistic script under varied names and folders, each also joined with
another, cut short in the middle of a line (syntax errors), with a noqa
comment, as a notebook, and a few that cannot be decoded. Then lints the
folder as JSON with -j 1, 2, 3 and 8 without the cache, and with -j 2
twice with a fresh cache (filling it, then reading it), and requires the
same exit status, output and error stream every time. Exit 0 when they
agree, 1 otherwise.
"""
import json
import os
import random
import subprocess
import sys
import tempfile

NAMES = ["train", "finetune", "pretrain", "main", "experiment", "fit", "sweep", "eval", "model", "utils"]


def sources(root):
    paths = []
    for folder in ("tests/realistic", "tests/rules"):
        for directory, _, files in os.walk(os.path.join(root, folder)):
            paths += [os.path.join(directory, name) for name in files if name.endswith(".py")]
    return [open(path, encoding="utf-8").read() for path in sorted(paths)]


def notebook(text):
    return json.dumps({"nbformat": 4, "nbformat_minor": 5, "metadata": {"language_info": {"name": "python"}},
                       "cells": [{"cell_type": "code", "metadata": {}, "execution_count": None, "outputs": [],
                                  "source": part.splitlines(keepends=True)} for part in text.split("\n\n\n")]})


def variants(texts, rng):
    """(extension, text or bytes) for each generated file."""
    for i, text in enumerate(texts):
        other = texts[(i * 7 + 3) % len(texts)]
        lines = text.splitlines(keepends=True)
        yield ".py", text
        yield ".py", text + "\n\n" + other
        yield ".py", "".join(lines[: len(lines) // 2]) + lines[len(lines) // 2][:7] if lines else "x = ("
        yield ".py", "".join(line.rstrip("\n") + "  # noqa\n" if j % 5 == 0 else line for j, line in enumerate(lines))
        yield ".ipynb", notebook(text)
        if i % 10 == 0:
            yield ".py", text.encode() + b"\n# \xff\xfe\n"


def write_corpus(folder, texts):
    rng = random.Random(11)
    for i, (extension, data) in enumerate(variants(texts, rng)):
        path = os.path.join(folder, "project_%02d" % (i % 23), "%s_%04d%s" % (rng.choice(NAMES), i, extension))
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(data if isinstance(data, bytes) else data.encode())
    return i + 1


def lint(gpulint, folder, *args):
    env = dict(os.environ, GPULINT_NO_CACHE="1")
    if "--cache-dir" in args:
        del env["GPULINT_NO_CACHE"]
    run = subprocess.run([gpulint, "--output-format", "json", *args, "."], cwd=folder, capture_output=True,
                         env=env, timeout=600)
    return run.returncode, run.stdout, run.stderr


def main():
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    gpulint, root = os.path.abspath(sys.argv[1]), sys.argv[2]
    with tempfile.TemporaryDirectory(prefix="gpulint-same-output-") as folder:
        corpus = os.path.join(folder, "corpus")
        count = write_corpus(corpus, sources(root))
        cache = os.path.join(folder, "cache")
        runs = [("-j 1", ("-j", "1")), ("-j 2", ("-j", "2")), ("-j 3", ("-j", "3")), ("-j 8", ("-j", "8")),
                ("-j 2, empty cache", ("-j", "2", "--cache-dir", cache)),
                ("-j 2, warm cache", ("-j", "2", "--cache-dir", cache))]
        reference = None
        for name, args in runs:
            result = lint(gpulint, corpus, *args)
            if reference is None:
                reference = result
                findings = len(json.loads(result[1]))
                print(f"{count} files, {findings} findings, exit {result[0]}")
                if findings < 100 or result[0] != 2:
                    print("FAIL: the corpus should give many findings and some load errors (exit 2)")
                    return 1
            elif result != reference:
                print(f"FAIL: {name} differs from -j 1: exit {result[0]} vs {reference[0]}, "
                      f"{len(result[1])} vs {len(reference[1])} bytes of output")
                return 1
            print(f"{name}: same")
    return 0


if __name__ == "__main__":
    sys.exit(main())
