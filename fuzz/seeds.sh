#!/usr/bin/env bash
# fuzz/seeds.sh NAME DIR: fills DIR with the seed inputs of harness NAME.
set -euo pipefail
cd "$(dirname "$0")/.."
name=$1 dir=$2
rm -rf "$dir"
mkdir -p "$dir"
case $name in
  lint_fuzzer)
    for file in tests/rules/*/*.py tests/realistic/*.py; do
      cp "$file" "$dir/$(echo "$file" | tr '/' '_')"
    done
    ;;
  noqa_fuzzer)
    # One seed per noqa comment in the fixtures, each behind a code-picking byte.
    python3 - "$dir" <<'PY'
import glob, os, sys
lines = [line for path in sorted(glob.glob("tests/rules/*/*.py") + glob.glob("tests/realistic/*.py"))
         for line in open(path, "rb").read().split(b"\n") if b"noqa" in line.lower()]
for i, line in enumerate(lines[:200]):
    open(os.path.join(sys.argv[1], f"line_{i}"), "wb").write(bytes([i % 7]) + line)
PY
    printf '\x06# gpulint: noqa\nx = 1\n' > "$dir/file_all"
    printf '\x01# gpulint: noqa: GPU1, GPU2\n' > "$dir/file_codes"
    printf '\x00x = "#" # noqa: GPU001,GPU101  \r\n' > "$dir/quoted"
    ;;
  notebook_fuzzer)
    find tests -name '*.ipynb' | sort | while IFS= read -r file; do
      cp "$file" "$dir/$(echo "$file" | tr '/' '_')"
    done
    ;;
esac
if [[ -d fuzz/regressions/$name ]]; then cp fuzz/regressions/"$name"/* "$dir"/ 2>/dev/null || true; fi
