#!/usr/bin/env bash
# The `language: python` pre-commit hook, with Debian's real pre-commit:
# a scratch repository pins this repository's last commit by SHA, and
# pre-commit builds gpulint into its own environment (no gpulint on PATH).
# Offline from a Python index: meson-python comes from the system
# (python3-mesonpy), through VIRTUALENV_SYSTEM_SITE_PACKAGES and
# PIP_NO_BUILD_ISOLATION=0; the build fetches the pinned grammar sources
# (and cJSON and libyaml where the system lacks them) as it does for every
# fresh clone.
set -euo pipefail
cd "$(dirname "$0")/../.."
source=$PWD
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@example.com GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@example.com
: >"$work/empty.gitconfig" # a file of ours, not the machine's /dev/null
export GIT_CONFIG_GLOBAL=$work/empty.gitconfig GIT_CONFIG_NOSYSTEM=1
export PRE_COMMIT_HOME=$work/pre-commit-home VIRTUALENV_SYSTEM_SITE_PACKAGES=true PIP_NO_BUILD_ISOLATION=0 PIP_NO_INDEX=1
if command -v gpulint >/dev/null; then
  PATH=$(printf '%s' "$PATH" | tr ':' '\n' | grep -vx "$(dirname "$(command -v gpulint)")" | paste -sd:)
fi
rev=$(git -C "$source" rev-parse HEAD)
mkdir "$work/project"
cd "$work/project"
git init --quiet
printf 'repos:\n  - repo: %s\n    rev: %s\n    hooks:\n      - id: gpulint\n' "$source" "$rev" >.pre-commit-config.yaml
start=$(date +%s)
pre-commit install-hooks >"$work/install.log" 2>&1 || { tail -40 "$work/install.log"; echo "pre-commit: the hook did not build" >&2; exit 1; }
echo "pre-commit built the hook in $(( $(date +%s) - start )) s"
pre-commit install --install-hooks >/dev/null
printf 'import torch\nfor x, y in loader:\n    loss = model(x).sum()\n    loss.backward()\n    optimizer.step()\n' >train.py
git add .pre-commit-config.yaml train.py
if git commit --quiet -m "train without zero_grad" >"$work/commit.log" 2>&1; then
  cat "$work/commit.log"; echo "pre-commit: the commit was not blocked" >&2; exit 1
fi
grep -q GPU001 "$work/commit.log" || { cat "$work/commit.log"; echo "pre-commit: no GPU001 in the hook output" >&2; exit 1; }
printf 'import torch\nfor x, y in loader:\n    optimizer.zero_grad()\n    loss = model(x).sum()\n    loss.backward()\n    optimizer.step()\n' >train.py
git add train.py
git commit --quiet -m "clear gradients" >"$work/commit.log" 2>&1 || { cat "$work/commit.log"; echo "pre-commit: the fixed file was blocked" >&2; exit 1; }
echo "pre-commit: the language: python hook builds gpulint and blocks the pitfall"
