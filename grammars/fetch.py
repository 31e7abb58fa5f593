#!/usr/bin/env python3
"""Fetches the pinned tree-sitter runtime and Python grammar into
grammars/node_modules/ from the npm registry, with Python alone (no npm).

The versions and their SHA-512 integrity hashes come from
package-lock.json; a download whose hash differs is refused. Only what the
build compiles (dist.PARTS) is unpacked. The registry is
$npm_config_registry when set (a mirror), else https://registry.npmjs.org.

Usage: fetch.py GRAMMARS_DIR
"""
import base64
import hashlib
import io
import json
import os
import sys
import tarfile
import urllib.request

import dist

REGISTRY = "https://registry.npmjs.org"
PACKAGES = ("tree-sitter", "tree-sitter-python")


def tarball(name, entry):
    """Downloads the package NAME pinned by its lock-file ENTRY and returns
    its bytes, checked against the entry's integrity hash; exits on a
    network error or a mismatch."""
    registry = os.environ.get("npm_config_registry") or REGISTRY
    url = f"{registry.rstrip('/')}/{name}/-/{name}-{entry['version']}.tgz"
    try:
        with urllib.request.urlopen(url, timeout=60) as response:
            data = response.read()
    except OSError as error:
        sys.exit(f"grammars/fetch.py: could not download {url}: {error}")
    algorithm, expected = entry["integrity"].split("-", 1)
    if algorithm != "sha512" or base64.b64encode(hashlib.sha512(data).digest()).decode() != expected:
        sys.exit(f"grammars/fetch.py: {url} does not match the integrity hash in package-lock.json")
    return data


def unpack(name, data, target):
    """Unpacks the members of the npm tarball DATA (under package/) that
    dist.PARTS names for package NAME into TARGET/NAME."""
    wanted = [part[len(name) + 1:] for part in dist.PARTS if part.split("/", 1)[0] == name]
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as archive:
        for member in archive.getmembers():
            relative = member.name.split("/", 1)[1] if "/" in member.name else ""
            keep = any(relative == part or relative.startswith(part + "/") for part in wanted)
            if not keep or not member.isfile() or ".." in relative.split("/"):
                continue
            destination = os.path.join(target, name, relative)
            os.makedirs(os.path.dirname(destination), exist_ok=True)
            with archive.extractfile(member) as source, open(destination, "wb") as out:
                out.write(source.read())


def main():
    grammars = sys.argv[1]
    with open(os.path.join(grammars, "package-lock.json")) as f:
        lock = json.load(f)["packages"]
    target = os.path.join(grammars, "node_modules")
    for name in PACKAGES:
        entry = lock[f"node_modules/{name}"]
        print(f"fetching {name} {entry['version']} from the npm registry")
        unpack(name, tarball(name, entry), target)


if __name__ == "__main__":
    main()
