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
[[ $(id -u) -eq 0 ]] || { echo "ci_jobs.sh: needs root (debootstrap, chroot)" >&2; exit 2; }
mirror=${MIRROR:-http://deb.debian.org/debian}
work=$(mktemp -d)
root=$work/root
cleanup() {
  for mount in proc sys dev; do umount -l "$root/$mount" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT
start=$(date +%s)
debootstrap --variant=minbase bookworm "$root" "$mirror" >"$work/debootstrap.log" 2>&1 ||
  { tail -20 "$work/debootstrap.log"; echo "ci_jobs.sh: debootstrap failed" >&2; exit 1; }
echo "debootstrap: $(( $(date +%s) - start )) s"
mount -t proc proc "$root/proc"; mount --rbind /sys "$root/sys"; mount --rbind /dev "$root/dev"
cp /etc/resolv.conf "$root/etc/resolv.conf"
git clone --quiet --depth 1 "file://$source" "$root/srv/gpulint.git"

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
