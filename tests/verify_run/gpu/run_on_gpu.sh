#!/usr/bin/env bash
# Runs the two scripts of this folder under the probe on a GPU machine
# without building gpulint there: each plan (written by `gpulint verify
# --run` on a CPU, its paths as @ROOT@) is set to this checkout's paths,
# and the probe's traces go to $1. `gpulint verify --run --replay` judges
# them anywhere.
set -euo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd)
out=${1:?usage: run_on_gpu.sh OUT_DIR}
for name in classifier lstm_lm; do
  sed "s#@ROOT@#$root#g" "$root/tests/verify_run/gpu/$name.plan.json" > "$out/$name.plan.json"
  start=$SECONDS
  status=0
  (cd "$root/tests/verify_run/gpu" && PYTHONPATH="$root/verify/run" PYTHONUNBUFFERED=1 \
    GPULINT_PROBE_TRACE="$out/$name.jsonl" GPULINT_PROBE_FINDINGS="$out/$name.plan.json" \
    GPULINT_PROBE_STEPS=50 GPULINT_PROBE_EVAL_STEPS=20 GPULINT_PROBE_SECONDS=240 \
    timeout 290 python3 "$name.py" 2> "$out/$name.stderr") || status=$?
  tail -c 300 "$out/$name.stderr" | tail -1 > "$out/$name.last"
  printf '{"e":"runner","command":["python3","%s.py"],"exit":%d,"signal":0,"timed_out":false,"device_name":"%s"}\n' \
    "$name" "$status" "$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)" >> "$out/$name.jsonl"
  echo "$name: exit $status in $((SECONDS - start)) s"
done
