#!/usr/bin/env python3
"""Prints the path of the shared library NAME (e.g. libcjson.so.1) that the
dynamic linker would load, from `ldconfig -p`, for the wheel build to copy
into its private library folder. Exits with a message when there is none.

Usage: find_library.py NAME
"""
import subprocess
import sys


def main():
    name = sys.argv[1]
    listing = subprocess.run(["/sbin/ldconfig", "-p"], capture_output=True, text=True).stdout
    for line in listing.splitlines():
        fields = line.strip().split(" => ")
        if len(fields) == 2 and fields[0].split(" ")[0] == name:
            print(fields[1])
            return
    sys.exit(f"{name} not found by ldconfig: install it (for cJSON: apt-get install libcjson-dev; for libyaml: libyaml-dev)")


if __name__ == "__main__":
    main()
