#!/usr/bin/env bash
# Runs `gpulint verify --run` (the runner, its NVML sampling and the probe)
# on every script of this folder and its fixed twin, then measures the
# probe's overhead with overhead_on_gpu.py (OVERHEAD_ROUNDS interleaved
# rounds, 4 by default; 0 skips it).
#
#   run_verify_on_gpu.sh GPULINT OUT_DIR
#
# OUT_DIR gets, per script, the saved trace (NAME.jsonl, judged again with
# `gpulint verify --run --replay`), the report (NAME.txt), --json
# (NAME.json) and the script's own output (NAME.stderr); then what
# overhead_on_gpu.py writes (OUT_DIR/overhead), and environment.txt.
set -uo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd)
gpulint=$(realpath "${1:?usage: run_verify_on_gpu.sh GPULINT OUT_DIR}")
out=$(realpath "${2:?usage: run_verify_on_gpu.sh GPULINT OUT_DIR}")
python=${PYTHON:-python3}
export GPULINT_VERIFY_DIR="$root/verify"
{
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
  "$python" -c 'import sys, torch; print("torch", torch.__version__, "cuda", torch.version.cuda, "python", sys.version.split()[0])'
} > "$out/environment.txt" 2>&1
scripts="classifier classifier_fixed lstm_lm lstm_lm_tbptt lstm_lm_fixed finetune_amp finetune_amp_fixed
  gan gan_fixed rl_recurrent rl_recurrent_fixed"
for name in $scripts; do
  start=$SECONDS
  (cd "$root/tests/verify_run/gpu" && "$gpulint" verify --run --seconds 120 --save-trace "$out/$name.jsonl" --json "$out/$name.json" \
    -- "$python" "$name.py" > "$out/$name.txt" 2> "$out/$name.stderr")
  echo "$name: exit $? in $((SECONDS - start)) s"
done
if [[ "${OVERHEAD_ROUNDS:-4}" != 0 ]]; then
  "$python" "$root/tests/verify_run/gpu/overhead_on_gpu.py" "$out/overhead" --gpulint "$gpulint" \
    --rounds "${OVERHEAD_ROUNDS:-4}"
fi
