#!/usr/bin/env bash
# Builds the wheel and the sdist as pip would (`python3 -m build
# --no-isolation`, Debian's python3-build and python3-mesonpy), then:
#   - installs the wheel into a fresh virtual environment as a user who is
#     not root (`pip install --no-index`), checks that the installed binary
#     loads the cJSON and libyaml the wheel carries from its private folder
#     (none in bin/), that `python -m gpulint` works and
#     `gpulint verify` finds its reproductions, and runs the command-line
#     suite against the installed gpulint;
#   - installs the sdist the same way with no network (a proxy that does
#     not exist: the sdist carries the grammar sources), lints, and
#     runs the suite against that gpulint too.
# Needs: python3-build python3-mesonpy patchelf python3-venv (scripts/bootstrap
# with GPULINT_BOOTSTRAP_EXTRA, as .ci/run sets it).
set -euo pipefail
cd "$(dirname "$0")/../.."
source=$PWD
work=$(mktemp -d)
top=$work
chmod 755 "$work"
trap 'rm -rf "$top"' EXIT
# Built with the Python of a virtual environment, as many do: meson-python
# writes that Python's path into .mesonpy-native-file.ini in the source
# tree, which git must not track (a clone would show it changed).
/usr/bin/python3 -m venv --system-site-packages "$work/build-env"
tracked_before=$(git status --porcelain --untracked-files=no)
"$work/build-env/bin/python" -m build --no-isolation --outdir "$work/dist" . >"$work/build.log" 2>&1 ||
  { tail -30 "$work/build.log"; echo "packaging: python3 -m build failed" >&2; exit 1; }
[[ $(git status --porcelain --untracked-files=no) == "$tracked_before" ]] ||
  { git status --short; echo "packaging: the build changed tracked files" >&2; exit 1; }
wheel=$(ls "$work"/dist/gpulint-*.whl) sdist=$(ls "$work"/dist/gpulint-*.tar.gz)
top=$work
echo "wheel: $(basename "$wheel") ($(du -k "$wheel" | cut -f1) KB); sdist: $(basename "$sdist") ($(du -k "$sdist" | cut -f1) KB)"
# The README's "The wheel (about N MB)" is within 10% of the wheel's size.
python3 - "$wheel" README.md <<'PY' || exit 1
import os, re, sys
size = os.path.getsize(sys.argv[1]) / 1e6
claim = float(re.search(r"The wheel \(about ([0-9.]+) MB\)", open(sys.argv[2]).read()).group(1))
if abs(claim - size) > 0.1 * size:
    sys.exit(f"packaging: README.md says the wheel is about {claim} MB; it is {size:.2f} MB")
PY

# Everything below runs as a user who is not root, when this runs as root.
as_user() { "$@"; }
mkdir -p "$work/user"
if [[ $(id -u) -eq 0 ]]; then
  id gpulint-ci >/dev/null 2>&1 || useradd --create-home --shell /bin/bash gpulint-ci
  chmod -R a+rX "$work" "$source/tests" "$source/verify"
  chown gpulint-ci "$work/user"
  as_user() { runuser -u gpulint-ci -- "$@"; }
fi
work=$work/user

as_user /usr/bin/python3 -m venv "$work/wheel-env"
start=$(date +%s%N)
as_user "$work/wheel-env/bin/pip" install --quiet --no-index "$wheel"
echo "wheel installed in $(( ($(date +%s%N) - start) / 1000000 )) ms"
gpulint=$work/wheel-env/bin/gpulint
# grep reads the whole list: with -q it would stop at the match, and ldd,
# still writing, would end the pipeline with SIGPIPE (pipefail).
# The libraries the wheel carries lie in its private folder, not in bin/
# (on PATH); those built from subprojects/ are linked in.
for library in libcjson.so.1 libyaml-0.so.2; do
  loaded=$(ldd "$gpulint" | awk -v name="$library" '$1 == name { print $3 }')
  [[ -z $loaded || $(realpath "$loaded") == "$work/wheel-env/gpulint/lib/$library" ]] ||
    { ldd "$gpulint"; echo "packaging: the installed binary does not load the $library of the wheel" >&2; exit 1; }
done
if ls "$work/wheel-env/bin" | grep '\.so' >/dev/null; then
  ls "$work/wheel-env/bin"; echo "packaging: the wheel put shared libraries into bin/" >&2; exit 1
fi
echo "installed binary needs: $(ldd "$gpulint" | awk '{print $1}' | tr '\n' ' ')"
as_user "$work/wheel-env/bin/python" -m gpulint --version | grep -q "^gpulint " ||
  { echo "packaging: python -m gpulint failed" >&2; exit 1; }
as_user "$gpulint" verify --list | grep "^GPU201" >/dev/null || { echo "packaging: verify finds no reproductions" >&2; exit 1; }
suite() {
  local failed=0
  for case in $(python3 tests/cli/cli_test.py --list); do
    as_user python3 tests/cli/cli_test.py --gpulint "$1" --source "$source" "$case" >/dev/null || { echo "FAILED $case"; failed=1; }
  done
  [[ $failed -eq 0 ]] || { echo "packaging: $1 failed command-line cases" >&2; exit 1; }
}
suite "$gpulint"

# The sdist builds with no network: a proxy that refuses every connection.
offline=(https_proxy=http://127.0.0.1:9 http_proxy=http://127.0.0.1:9 HTTPS_PROXY=http://127.0.0.1:9 HTTP_PROXY=http://127.0.0.1:9)
as_user /usr/bin/python3 -m venv --system-site-packages "$work/sdist-env"
as_user env "${offline[@]}" "$work/sdist-env/bin/pip" install --quiet --no-index --no-build-isolation "$sdist" ||
  { echo "packaging: the sdist did not build offline" >&2; exit 1; }
cp examples/train_mnist.py "$top/example.py"
chmod a+r "$top/example.py"
as_user "$work/sdist-env/bin/gpulint" --no-cache --exit-zero "$top/example.py" >"$top/sdist.out" 2>&1 || true
grep -q GPU201 "$top/sdist.out" || { cat "$top/sdist.out"; echo "packaging: the sdist's gpulint did not lint" >&2; exit 1; }
suite "$work/sdist-env/bin/gpulint"
echo "packaging: wheel and sdist install and run"
