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
# --replay`), NAME.stderr, environment.txt and overhead.txt: the median
# step over steps 21-200 of two ResNet-18 loops (overhead_on_gpu.sh's),
# plain and under the probe with NVML sampling, ROUNDS (3) times.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
out=$(realpath "${1:?usage: run_ranks_on_gpu.sh OUT_DIR [ROUNDS]}")
rounds=${2:-3}
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
declare -A folder=([good]="$root/verify" [pitfalls]="$here")
declare -A script=([good]=gpu201_training_loop_good.py [pitfalls]=resnet_pitfalls.py)
declare -A plan=([good]=gpu201_good [pitfalls]=resnet_pitfalls)
for round in $(seq "$rounds"); do
  for name in good pitfalls; do
    (cd "${folder[$name]}" && "$python" "${script[$name]}" --steps 200 > "$out/$name-plain-$round.out" 2>&1)
    STEPS=100000 "$python" "$here/record_run_on_gpu.py" "$here/${plan[$name]}.plan.json" "$out/$name-probe-$round.jsonl" \
      --steps 100000 -- "$python" "${script[$name]}" --steps 200 > "$out/$name-probe-$round.out" 2>&1
  done
  echo "round $round done"
done
"$python" - "$out" "$rounds" > "$out/overhead.txt" <<'PY'
import json, statistics, sys
out, rounds = sys.argv[1], int(sys.argv[2])
def median_step(path):
    times = []
    for line in open(path, errors="replace"):
        try:
            record = json.loads(line)
        except ValueError:
            continue
        if isinstance(record, dict) and 21 <= record.get("step", 0) <= 200 and "time_ms" in record:
            times.append(record["time_ms"])
    return statistics.median(times) if len(times) == 180 else float("nan")
for name in ("good", "pitfalls"):
    plain = [median_step("%s/%s-plain-%d.out" % (out, name, r)) for r in range(1, rounds + 1)]
    probe = [median_step("%s/%s-probe-%d.out" % (out, name, r)) for r in range(1, rounds + 1)]
    base = statistics.mean(plain)
    print("%-9s plain %s" % (name, "  ".join("%.2f ms" % v for v in plain)))
    print("%-9s probe %s   %s   mean %+.1f%%" % (name, "  ".join("%.2f ms" % v for v in probe),
          "  ".join("%+.1f%%" % ((v / base - 1) * 100) for v in probe), (statistics.mean(probe) / base - 1) * 100))
PY
cat "$out/overhead.txt"
