#!/usr/bin/env bash
# Runs the CI jobs of docs/ci.md as a runner would: in a fresh Debian 12
# root made with debootstrap (the `debian:bookworm` image's contents), the
# GitLab job's before_script and script, and the install step of the
# GitHub job (as root, where GitHub's runner uses sudo), then lints a file.
# Then, in a third root, what a newcomer does: with only build-essential,
# python3-venv and python3-mesonpy (and pre-commit and git to use it) the
# `gpulint` pre-commit hook builds (tests/packaging/pre_commit.sh, as a
# user who is not root), then the README's install lines, word for word.
# GPULINT_GIT is a clone of this repository's last commit. Needs root,
# debootstrap and a Debian mirror (MIRROR, default deb.debian.org).
set -euo pipefail
cd "$(dirname "$0")/../.."
source=$PWD
# --check: whether this machine can run it (root, debootstrap, mounts).
if [[ ${1:-} == --check ]]; then
  [[ $(id -u) -eq 0 ]] && command -v debootstrap >/dev/null || exit 1
  probe=$(mktemp -d)
  mount -t tmpfs tmpfs "$probe" 2>/dev/null && umount "$probe" && rmdir "$probe" && exit 0
  rmdir "$probe"
  exit 1
fi
[[ $(id -u) -eq 0 ]] || { echo "ci_jobs.sh: needs root (debootstrap, chroot)" >&2; exit 2; }
mirror=${MIRROR:-http://deb.debian.org/debian}
work=$(mktemp -d)
root=$work/root
cleanup() {
  for mount in proc sys dev; do
    umount -l "$root/$mount" 2>/dev/null || true
    umount -l "$work/action-root/$mount" 2>/dev/null || true
    umount -l "$work/newcomer-root/$mount" 2>/dev/null || true
  done
  rm -rf "$work"
}
trap cleanup EXIT
start=$(date +%s)
debootstrap --variant=minbase bookworm "$root" "$mirror" >"$work/debootstrap.log" 2>&1 ||
  { tail -20 "$work/debootstrap.log"; echo "ci_jobs.sh: debootstrap failed" >&2; exit 1; }
echo "debootstrap: $(( $(date +%s) - start )) s"
# A machine behind a TLS-inspecting proxy trusts the proxy's certificate:
# the fresh root gets the host's local certificates (the job's
# ca-certificates install adds them).
mkdir -p "$root/usr/local/share/ca-certificates"
cp /usr/local/share/ca-certificates/*.crt "$root/usr/local/share/ca-certificates/" 2>/dev/null || true
cp /etc/resolv.conf "$root/etc/resolv.conf"
git clone --quiet --depth 1 "file://$source" "$root/srv/gpulint.git"
cp -a "$root" "$work/action-root" # a second fresh root, for the GitHub Action
cp -a "$root" "$work/newcomer-root" # a third, for a contributor's pre-commit hook and the README's install
mount -t proc proc "$root/proc"; mount --rbind /sys "$root/sys"; mount --rbind /dev "$root/dev"

# The job's commands, taken from docs/ci.md's GitLab block as written.
python3 - "$source/docs/ci.md" >"$work/gitlab.sh" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
block = re.search(r"```yaml\n# \.gitlab-ci\.yml\n(.*?)```", text, re.S).group(1)
lines, section = [], None
for line in block.splitlines():
    key = re.match(r"  (\w+):\s*$", line)
    if key:
        section = key.group(1)
        continue
    item = re.match(r"    - (.*)$", line)
    if item and section in ("before_script", "script"):
        lines.append(item.group(1))
print("set -eux")
print("\n".join(lines))
PY
cp "$source/examples/train_mnist.py" "$root/srv/train.py"
start=$(date +%s)
chroot "$root" /usr/bin/env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/root \
  GPULINT_GIT=/srv/gpulint.git DEBIAN_FRONTEND=noninteractive bash -c "cd /srv && $(cat "$work/gitlab.sh") || true" \
  >"$work/job.log" 2>&1 || true
echo "GitLab job: $(( $(date +%s) - start )) s"
chroot "$root" /usr/local/bin/gpulint --version >/dev/null 2>&1 ||
  { tail -40 "$work/job.log"; echo "ci_jobs.sh: the GitLab job did not install gpulint" >&2; exit 1; }
grep -q '"check_name"' "$root/srv/gl-code-quality-report.json" ||
  { tail -20 "$work/job.log"; echo "ci_jobs.sh: the GitLab job wrote no Code Quality report" >&2; exit 1; }
echo "ci_jobs.sh: the GitLab job of docs/ci.md installs gpulint and reports, in a fresh Debian 12 root"

# The GitHub Action's steps (scripts/action, as action.yml runs them) in
# another fresh root, twice: the second run takes the cached build.
action=$work/action-root
mount -t proc proc "$action/proc"; mount --rbind /sys "$action/sys"; mount --rbind /dev "$action/dev"
cp -a "$root/srv/gpulint.git" "$action/srv/action" 2>/dev/null || git clone --quiet "file://$source" "$action/srv/action"
mkdir -p "$action/srv/workspace" && cp "$source/examples/train_mnist.py" "$action/srv/workspace/"
run_action() {
  chroot "$action" /usr/bin/env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/root \
    GPULINT_HOME=/srv/runner-temp/gpulint GITHUB_PATH=/srv/github_path GITHUB_OUTPUT=/srv/github_output \
    INPUT_PATHS=. INPUT_FORMAT=sarif INPUT_OUTPUT_FILE=gpulint.sarif INPUT_EXIT_ZERO=true \
    bash -c "cd /srv/workspace && /srv/action/scripts/action install && /srv/action/scripts/action lint"
}
start=$(date +%s)
run_action >"$work/action.log" 2>&1 || { tail -30 "$work/action.log"; echo "ci_jobs.sh: the action failed" >&2; exit 1; }
echo "GitHub Action, first run: $(( $(date +%s) - start )) s"
grep -q '"ruleId"' "$action/srv/workspace/gpulint.sarif" || { echo "ci_jobs.sh: the action left no SARIF findings" >&2; exit 1; }
grep -q "report=gpulint.sarif" "$action/srv/github_output" || { echo "ci_jobs.sh: no report output" >&2; exit 1; }
run_action >"$work/action.log" 2>&1 && grep -q "cached build" "$work/action.log" ||
  { tail -10 "$work/action.log"; echo "ci_jobs.sh: the second run did not reuse the build" >&2; exit 1; }
echo "ci_jobs.sh: the GitHub Action installs gpulint (then reuses its build) and leaves a SARIF report, in a fresh Debian 12 root"

# A newcomer: the pre-commit hook with a C compiler and Python only (cJSON,
# libyaml and the grammar come from their pinned sources), then the
# README's install block as written, by a user with sudo.
newcomer=$work/newcomer-root
mount -t proc proc "$newcomer/proc"; mount --rbind /sys "$newcomer/sys"; mount --rbind /dev "$newcomer/dev"
in_root() { chroot "$newcomer" /usr/bin/env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/root \
  DEBIAN_FRONTEND=noninteractive "$@"; }
as_newcomer() { in_root runuser -u dev -- env HOME=/home/dev "$@"; }
start=$(date +%s)
{ in_root apt-get update -qq &&
  in_root apt-get install -y -qq --no-install-recommends ca-certificates sudo git pre-commit \
    build-essential python3-venv python3-mesonpy &&
  in_root useradd --create-home --shell /bin/bash dev &&
  echo "dev ALL=(ALL) NOPASSWD: ALL" >"$newcomer/etc/sudoers.d/dev" && in_root chown -R dev: /srv/gpulint.git &&
  as_newcomer git clone --quiet /srv/gpulint.git /home/dev/gpulint; } >"$work/newcomer.log" 2>&1 ||
  { tail -20 "$work/newcomer.log"; echo "ci_jobs.sh: could not set up the newcomer's root" >&2; exit 1; }
for tool in pkg-config npm; do
  in_root sh -c "command -v $tool" >/dev/null && { echo "ci_jobs.sh: the newcomer's root has $tool" >&2; exit 1; }
done
as_newcomer /home/dev/gpulint/tests/packaging/pre_commit.sh >>"$work/newcomer.log" 2>&1 ||
  { tail -40 "$work/newcomer.log"; echo "ci_jobs.sh: the pre-commit hook did not build with a compiler and Python only" >&2; exit 1; }
echo "pre-commit hook, compiler and Python only: $(( $(date +%s) - start )) s"
echo "ci_jobs.sh: the gpulint pre-commit hook builds and blocks a pitfall with only build-essential, python3-venv and python3-mesonpy"

# The README's install block, taken from its "Install" section as written.
python3 - "$source/README.md" >"$newcomer/home/dev/install.sh" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
section = re.search(r"\n## Install\n(.*?)\n## ", text, re.S).group(1)
print("set -eux")
print(re.search(r"```sh\n(.*?)```", section, re.S).group(1))
PY
start=$(date +%s)
# No Python index here: pipx's upgrade of its own pip fails at once, as
# pipx allows, instead of retrying.
as_newcomer PIP_NO_INDEX=1 bash -c "cd /home/dev/gpulint && bash /home/dev/install.sh" >"$work/readme.log" 2>&1 ||
  { tail -30 "$work/readme.log"; echo "ci_jobs.sh: the README's install lines failed" >&2; exit 1; }
as_newcomer /home/dev/.local/bin/gpulint --no-cache --exit-zero /home/dev/gpulint/examples/train_mnist.py | grep -q GPU001 ||
  { tail -30 "$work/readme.log"; echo "ci_jobs.sh: the gpulint the README installs does not lint" >&2; exit 1; }
echo "README install: $(( $(date +%s) - start )) s"
echo "ci_jobs.sh: the README's install lines work as a user who is not root, in a fresh Debian 12 root"
