#!/usr/bin/env bash
# What the README and docs/ claim about packaging, checked against the
# repository (no root, no network; the wheel's size is checked by check.sh,
# which builds it):
#   - the README is a front door: its sections, the two set-up commands,
#     a short Performance section that points to bench/README.md;
#   - the install line names what `scripts/bootstrap --wheel` installs, and
#     the dependency table says why each of those packages is there;
#   - "every rule but ... has a fix" names the rules whose page says
#     `Fix: none`;
#   - no document pins a tag the repository does not have;
#   - the puzzling message of `python3 -m build` without the build module
#     (Python finds the build folder build/ instead) is explained.
set -euo pipefail
cd "$(dirname "$0")/../.."
python3 - <<'PY'
import glob, re, subprocess, sys

readme = open("README.md").read()
problems = []

# The front door.
sections = re.findall(r"^## (.+)$", readme, re.M)
for wanted in ("Install", "Quick start", "Usage", "In CI and pre-commit", "Rules",
               "Measured on a GPU: `gpulint verify`", "Performance", "Tests", "Dependencies and why"):
    if wanted not in sections:
        problems.append(f"README.md has no '## {wanted}' section")
for command in ("scripts/run-example", "scripts/test"):
    if not re.search(r"```sh\n(?:.*\n)*?" + re.escape(command) + r"\b", readme):
        problems.append(f"README.md shows no `{command}` in a shell block")
lines = readme.count("\n")
if lines > 450:
    problems.append(f"README.md has {lines} lines: keep details in docs/ and bench/README.md")
performance = re.search(r"\n## Performance\n(.*?)(?=\n## )", readme, re.S)
if performance and ("bench/README.md" not in performance.group(1) or performance.group(1).count("\n") > 25):
    problems.append("README.md's Performance section should be short and point to bench/README.md")

# The install line and scripts/bootstrap --wheel.
found = re.search(r"\n## Install\n(.*?)(?=\n## )", readme, re.S)
install = found.group(1) if found else ""
found = re.search(r"apt-get install ([^\n]+)", install)
apt = found.group(1).split() if found else []
apt = {word for word in apt if not word.startswith("-")}
bootstrap = open("scripts/bootstrap").read()
# cmocka is for the tests only; python3-build and the rest bring python3.
needs = set(re.findall(r'^\s+"([a-z0-9.+-]+):', bootstrap, re.M)) - {"libcmocka-dev", "python3"}
for package in sorted(needs - apt):
    problems.append(f"README.md's install line lacks {package} (scripts/bootstrap --wheel installs it)")
for package in sorted(apt - needs - {"pipx"}):
    problems.append(f"README.md's install line has {package}, which scripts/bootstrap --wheel does not install")
found = re.search(r"\n## Dependencies and why\n(.*?)(?=\n## |\Z)", readme, re.S)
table = found.group(1) if found else ""
for package in sorted(needs | apt):
    if package not in table and not (package in ("gcc", "libc6-dev") and "build-essential" in table):
        problems.append(f"README.md's dependency table does not say why {package} is needed")

# `python3 -m build` without python3-build finds the build folder build/
# (scripts/build's default) instead, and says something puzzling: the
# README must say what it means.
if "${BUILD_DIR:-build}" in open("scripts/build").read() and \
        "'build' is a package and cannot be directly executed" not in " ".join(install.split()):
    problems.append("README.md's Install does not explain the message of `python3 -m build` without python3-build")

# Which rules have no fix.
no_fix = set()
for page in glob.glob("rules/gpu*.md"):
    header = open(page).read().split("\n")[2]
    if header.rstrip().endswith("Fix: none"):
        no_fix.add(re.search(r"gpu(\d+)", page).group(0).upper())
claim = re.search(r"Every rule but ((?:GPU\d+,?\s*(?:and\s+)?)+)has a\s+fix", readme)
if not claim:
    problems.append("README.md does not say which rules have no fix")
elif set(re.findall(r"GPU\d+", claim.group(1))) != no_fix:
    problems.append(f"README.md: the rules without a fix are {sorted(no_fix)}, not {re.findall(r'GPU[0-9]+', claim.group(1))}")

# Tags that documents pin.
tags = set(subprocess.run(["git", "tag", "--list"], capture_output=True, text=True).stdout.split())
for path in ["README.md"] + glob.glob("docs/*.md"):
    for tag in re.findall(r"--branch (v[\w.]+)", open(path).read()):
        if not tags or ("X" not in tag and tag not in tags):
            problems.append(f"{path} pins the tag {tag}, which the repository does not have")

if problems:
    print("\n".join(problems), file=sys.stderr)
    sys.exit(1)
PY
echo "docs: the README's sections, install line, fix claim and pins match the repository"
