#!/usr/bin/env bash
# The steady-state A/B and every rank, on a GPU machine (two GPUs for the
# torchrun pair), then the probe's overhead over several rounds:
#
#   run_ranks_on_gpu.sh OUT_DIR [ROUNDS]
#
# Each script runs under `gpulint verify --run` when gpulint builds there
# (meson), else under record_run_on_gpu.py, which stands in for the runner
# (the probe in every process, the traces merged, NVML per device) with
# the plans gpulint wrote elsewhere (NAME.plan.json). OUT_DIR gets
# h200_run_NAME.jsonl (judged again anywhere with `gpulint verify --run
# --replay`), NAME.stderr, environment.txt and overhead.txt: the probe's
# overhead on a ResNet-18 loop over ROUNDS (4) interleaved rounds
# (overhead_on_gpu.py).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
out=$(realpath "${1:?usage: run_ranks_on_gpu.sh OUT_DIR [ROUNDS]}")
rounds=${2:-4}
python=${PYTHON:-python3}
{
  nvidia-smi --query-gpu=index,name,driver_version,memory.total --format=csv,noheader
  "$python" -c 'import sys, torch; print("torch", torch.__version__, "cuda", torch.version.cuda, "python", sys.version.split()[0])'
} > "$out/environment.txt" 2>&1
gpulint=
if timeout 300 meson setup /tmp/gpulint-build "$root" > "$out/build.log" 2>&1 &&
   timeout 300 ninja -C /tmp/gpulint-build src/gpulint >> "$out/build.log" 2>&1; then
  gpulint=/tmp/gpulint-build/src/gpulint
fi
echo "gpulint: ${gpulint:-not built, record_run_on_gpu.py stands in}" >> "$out/environment.txt"
record() {
  local name=$1 folder=$2
  shift 2
  local start=$SECONDS
  if [[ -n $gpulint ]]; then
    (cd "$folder" && GPULINT_VERIFY_DIR="$root/verify" "$gpulint" verify --run --save-trace "$out/h200_run_$name.jsonl" \
      -- "$@" > "$out/$name.txt" 2> "$out/$name.stderr")
  else
    "$python" "$here/record_run_on_gpu.py" "$here/$name.plan.json" "$out/h200_run_$name.jsonl" --steps "${STEPS:-50}" \
      -- "$@" 2> "$out/$name.stderr"
  fi
  echo "$name: exit $? in $((SECONDS - start)) s"
}
record warmup_cache "$here" "$python" warmup_cache.py
record warmup_cache_fixed "$here" "$python" warmup_cache_fixed.py
if [[ $(nvidia-smi --query-gpu=index --format=csv,noheader | wc -l) -ge 2 ]]; then
  record ddp_resume "$here" torchrun --nproc-per-node 2 ddp_resume.py
  record ddp_resume_fixed "$here" torchrun --nproc-per-node 2 ddp_resume_fixed.py
fi
"$python" "$here/overhead_on_gpu.py" "$out/overhead" ${gpulint:+--gpulint "$gpulint"} --rounds "$rounds" \
  | tee "$out/overhead.txt"
