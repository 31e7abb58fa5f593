#!/usr/bin/env python3
"""Checks grammars/node_modules/ against the SHA256SUMS a source
distribution carries (grammars/dist.py wrote it); exits with the first
mismatch. Usage: check_sums.py FOLDER"""
import hashlib
import os
import sys


def main():
    folder = sys.argv[1]
    with open(os.path.join(folder, "SHA256SUMS")) as f:
        for line in f:
            digest, name = line.rstrip("\n").split("  ", 1)
            path = os.path.join(folder, name)
            if not os.path.isfile(path) or hashlib.sha256(open(path, "rb").read()).hexdigest() != digest:
                sys.exit(f"grammars/node_modules/{name} does not match SHA256SUMS")


if __name__ == "__main__":
    main()
