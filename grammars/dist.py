#!/usr/bin/env python3
"""A meson dist script: puts the pinned tree-sitter sources into the source
distribution, so that it builds without a network.

The files come from grammars/node_modules/, which fetch.py filled and
checked against package-lock.json's integrity hashes when the tree was
configured; only what the build compiles is copied (the runtime's lib/ and
the grammar's src/), with the packages' licences and manifests. A file list
with SHA-256 hashes goes beside them (grammars/node_modules/SHA256SUMS), and
meson checks the tree against it.
"""
import hashlib
import os
import shutil
import sys

PARTS = [
    "tree-sitter/package.json",
    "tree-sitter/LICENSE",
    "tree-sitter/vendor/tree-sitter/lib",
    "tree-sitter-python/package.json",
    "tree-sitter-python/LICENSE",
    "tree-sitter-python/src",
]


def main():
    source = os.path.join(os.environ["MESON_SOURCE_ROOT"], "grammars", "node_modules")
    target = os.path.join(os.environ["MESON_DIST_ROOT"], "grammars", "node_modules")
    sums = []
    for part in PARTS:
        origin = os.path.join(source, part)
        if not os.path.exists(origin):
            sys.exit(f"grammars/dist.py: {origin} is missing: configure once to fetch the pinned sources (grammars/fetch.py)")
        destination = os.path.join(target, part)
        os.makedirs(os.path.dirname(destination), exist_ok=True)
        if os.path.isdir(origin):
            shutil.copytree(origin, destination)
        else:
            shutil.copy2(origin, destination)
    for folder, _, names in os.walk(target):
        for name in sorted(names):
            path = os.path.join(folder, name)
            digest = hashlib.sha256(open(path, "rb").read()).hexdigest()
            sums.append(f"{digest}  {os.path.relpath(path, target)}\n")
    with open(os.path.join(target, "SHA256SUMS"), "w") as f:
        f.writelines(sorted(sums, key=lambda line: line[66:]))


if __name__ == "__main__":
    main()
