#!/usr/bin/env bash
# fuzz/seeds.sh NAME DIR: fills DIR with the seed inputs of harness NAME.
set -euo pipefail
cd "$(dirname "$0")/.."
name=$1 dir=$2
rm -rf "$dir"
mkdir -p "$dir"
case $name in
  lint_fuzzer | fix_fuzzer)
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
  config_fuzzer)
    # Valid configs (a kind byte, then the file: 0 pyproject.toml, 1
    # gpulint.toml), and the TOML of the unit tests' samples.
    python3 - "$dir" <<'PY'
import os, sys
PYPROJECT = [
    '[project]\nname = "train"\nversion = "0.1.0"\ndependencies = ["torch>=2.1", "lightning"]\n\n'
    '[tool.gpulint]\nselect = ["GPU0", "GPU1"]\nignore = ["GPU102"]\nextend-select = ["GPU201"]\n',
    '[tool.gpulint]\nexclude = ["legacy", "*_pb2.py"]\nextend-exclude = ["scratch/{a,b}", "**/gen/*.py"]\n'
    'respect-gitignore = false\nforce-exclude = true\noutput-format = "full"\n',
    '[tool.gpulint.per-file-ignores]\n"tests/*" = ["GPU001", "GPU002"]\n"__init__.py" = []\n',
    '[tool.gpulint]\nper-file-ignores = { "notebooks/*.ipynb" = ["GPU103"], "conftest.py" = ["ALL"] }\n',
    '[tool.ruff]\nline-length = 100\n[tool.ruff.lint]\nselect = ["E", "F"]\n[tool.gpulint]\nselect = ["ALL"]\n',
    '[build-system]\nrequires = ["setuptools>=61"]\nbuild-backend = "setuptools.build_meta"\n'
    '[tool.pytest.ini_options]\naddopts = "-q"\ntestpaths = [\'tests\']\n',
    '# comment\n[tool]\ngpulint.select = ["GPU9"]\ngpulint."extend-exclude" = [\'\'\'raw\'\'\']\n',
    '[tool.poetry]\nname = "x"\n[[tool.poetry.source]]\nname = "pytorch"\nurl = "https://download.pytorch.org"\n'
    '[tool.gpulint]\nignore = ["GPU2"]\n',
    'title = "values"\nint = +1_000\nhex = 0xDEAD_beef\noct = 0o755\nbin = 0b1101\nflt = -3.1415e+2\n'
    'inf = inf\nnan = -nan\ndt = 1979-05-27T07:32:00-08:00\nld = 1979-05-27\nlt = 07:32:00.999\n'
    'multi = """\nline \\\n  continued"""\nlit = \'C:\\path\'\nesc = "\\u00e9\\U0001F600\\t"\n'
    'nested = [[1, 2], ["a", "b"], [{x = 1}]]\n',
]
GPULINT = [
    'select = ["GPU001"]\nextend-select = ["GPU9"]\nexclude = ["build"]\n',
    'output-format = "sarif"\nforce-exclude = false\n[per-file-ignores]\n"*.ipynb" = ["GPU103"]\n',
]
for i, text in enumerate(PYPROJECT):
    open(os.path.join(sys.argv[1], f"pyproject_{i}"), "wb").write(b"\x00" + text.encode())
for i, text in enumerate(GPULINT):
    open(os.path.join(sys.argv[1], f"gpulint_{i}"), "wb").write(b"\x01" + text.encode())
PY
    ;;
  notebook_fuzzer)
    find tests -name '*.ipynb' | sort | while IFS= read -r file; do
      cp "$file" "$dir/$(echo "$file" | tr '/' '_')"
    done
    ;;
esac
if [[ -d fuzz/regressions/$name ]]; then cp fuzz/regressions/"$name"/* "$dir"/ 2>/dev/null || true; fi
