#!/usr/bin/env python3
"""Prints the commit gpulint is built from: `git describe` in a checkout,
else the COMMIT file a source distribution carries (written by the dist
script, `commit.py --dist`), else "unknown".

Usage: commit.py SOURCE_ROOT           (for vcs_tag)
       commit.py --dist                (as a meson dist script)
"""
import os
import subprocess
import sys


def describe(root):
    try:
        out = subprocess.run(["git", "-C", root, "describe", "--always", "--dirty", "--abbrev=12"],
                             capture_output=True, text=True, timeout=30)
    except OSError:
        return None
    return out.stdout.strip() if out.returncode == 0 and out.stdout.strip() else None


def main():
    if sys.argv[1] == "--dist":
        commit = describe(os.environ["MESON_SOURCE_ROOT"]) or "unknown"
        with open(os.path.join(os.environ["MESON_DIST_ROOT"], "COMMIT"), "w") as f:
            f.write(commit.replace("-dirty", "") + "\n")
        return
    root = sys.argv[1]
    commit = describe(root) if os.path.exists(os.path.join(root, ".git")) else None
    if not commit and os.path.isfile(os.path.join(root, "COMMIT")):
        commit = open(os.path.join(root, "COMMIT")).read().strip()
    print(commit or "unknown")


if __name__ == "__main__":
    main()
