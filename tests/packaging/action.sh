#!/usr/bin/env bash
# The GitHub Action's own logic, outside GitHub (no root, no network):
#   - the build's cache key comes from `scripts/action key`, a hash of the
#     action's sources: hashFiles() sees only the workspace, so a key made
#     with it over github.action_path is constant, and a new pinned commit
#     would restore the old binary;
#   - the key changes with a source and not with the folder it lies in;
#   - formats meant for the log (github, text, full) are printed, and
#     report formats are written into output-file (gpulint.sarif by default);
#   - the README's and docs/ci.md's Action jobs grant the SARIF upload
#     `security-events: write`.
# Uses the gpulint of BUILD_DIR (default build; scripts/build makes it).
set -euo pipefail
cd "$(dirname "$0")/../.."
source=$PWD
gpulint=$source/${BUILD_DIR:-build}/src/gpulint
[[ -x $gpulint ]] || { echo "action: build gpulint first (scripts/build)" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "action: $*" >&2; exit 1; }

# The cache key.
grep -q "hashFiles(.*github.action_path" action.yml && fail "action.yml hashes github.action_path, which hashFiles() cannot see"
grep -Eq '^ +key: \$\{\{ steps\.key\.outputs\.key \}\}$' action.yml || fail "the cache key is not the key step's output"
key() { GPULINT_HOME=$work/home GITHUB_OUTPUT=$work/github_output "$1/scripts/action" key; }
git ls-files -z | tar -C "$source" --null -T - -cf - | (mkdir "$work/a" && tar -C "$work/a" -xf -)
cp -a "$work/a" "$work/b"
[[ $(key "$source") == "$(key "$work/a")" ]] || fail "the key depends on the action's folder"
grep -qx "key=$(key "$work/a")" "$work/github_output" || fail "no key= line in GITHUB_OUTPUT"
echo "/* a newer commit */" >>"$work/b/src/main.c"
[[ $(key "$work/a") != "$(key "$work/b")" ]] || fail "the key did not change with a source"

# Where the report goes.
mkdir -p "$work/home/prefix/bin" "$work/ws"
ln -s "$gpulint" "$work/home/prefix/bin/gpulint"
cp examples/train_mnist.py "$work/ws/train.py"
lint() {
  rm -f "$work/github_output" "$work/ws/gpulint.sarif"
  (cd "$work/ws" && env GPULINT_HOME="$work/home" GITHUB_OUTPUT="$work/github_output" INPUT_PATHS=. "$@" \
    "$source/scripts/action" lint) >"$work/stdout"
}
lint INPUT_FORMAT=github
grep -q '^::error file=train.py,line=[0-9]*,.*GPU001' "$work/stdout" || fail "format github printed no annotations to the log"
[[ ! -e $work/ws/gpulint.sarif ]] || fail "format github wrote gpulint.sarif"
grep -qx "report=" "$work/github_output" || fail "format github: the report output is not empty"
lint INPUT_FORMAT=full
grep -q "GPU001" "$work/stdout" || fail "format full printed nothing to the log"
lint INPUT_FORMAT=sarif
grep -Eq '"ruleId":[[:space:]]*"GPU001"' "$work/ws/gpulint.sarif" || fail "format sarif wrote no gpulint.sarif"
grep -qx "report=gpulint.sarif" "$work/github_output" || fail "format sarif: no report output"
lint INPUT_FORMAT=github INPUT_OUTPUT_FILE=annotations.txt
grep -q '^::error' "$work/ws/annotations.txt" || fail "an output-file given for github was not written"

# The documented jobs that upload SARIF grant the permission.
python3 - README.md docs/ci.md <<'PY' || fail "a job that runs upload-sarif lacks security-events: write"
import re, sys
for path in sys.argv[1:]:
    for block in re.findall(r"```yaml\n(.*?)```", open(path).read(), re.S):
        if "upload-sarif" in block and not re.search(r"permissions:\s*\n(\s+\S.*\n)*?\s+security-events: write", block):
            sys.exit(f"{path}: a YAML block runs upload-sarif without `permissions: security-events: write`")
PY
echo "action: the cache key follows the sources, log formats reach the log, the jobs may upload SARIF"
