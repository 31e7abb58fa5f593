#!/usr/bin/env bash
# Runs the CI jobs of docs/ci.md as a runner would: in a fresh Debian 12
# root made with debootstrap (the `debian:bookworm` image's contents), the
# GitLab job's before_script and script, and the install step of the
# GitHub job (as root, where GitHub's runner uses sudo), then lints a file.
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
# ca-certificates install adds them) and npm is told where they are.
mkdir -p "$root/usr/local/share/ca-certificates"
cp /usr/local/share/ca-certificates/*.crt "$root/usr/local/share/ca-certificates/" 2>/dev/null || true
proxy_env=()
[[ -n ${NODE_EXTRA_CA_CERTS:-} ]] && proxy_env=(NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt)
cp /etc/resolv.conf "$root/etc/resolv.conf"
git clone --quiet --depth 1 "file://$source" "$root/srv/gpulint.git"
cp -a "$root" "$work/action-root" # a second fresh root, for the GitHub Action
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
  GPULINT_GIT=/srv/gpulint.git DEBIAN_FRONTEND=noninteractive "${proxy_env[@]}" bash -c "cd /srv && $(cat "$work/gitlab.sh") || true" \
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
    INPUT_PATHS=. INPUT_FORMAT=sarif INPUT_OUTPUT_FILE=gpulint.sarif INPUT_EXIT_ZERO=true "${proxy_env[@]}" \
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
