#!/usr/bin/env bash
# The probe's overhead on two ResNet-18 training loops (batch 64 at
# 224x224, synchronized step times printed by the scripts themselves):
#
#   good      verify/gpu201_training_loop_good.py: no finding, so the probe
#             only counts forwards, backwards and steps
#   pitfalls  tests/verify_run/gpu/resnet_pitfalls.py: GPU001 (gradient
#             norms and clearing measured) and GPU201 (the empty_cache A/B)
#
# Each round runs each loop plain, under `gpulint verify --run` (the runner,
# its NVML sampling and the probe) and under the probe alone (its variables
# and the runner's plan, no runner), one after the other, for 200 steps.
#
#   overhead_on_gpu.sh GPULINT OUT_DIR [ROUNDS]
#
# OUT_DIR gets each run's output (CASE-{plain,run,probe}-ROUND.out), the
# runner's traces and reports (CASE-run-ROUND.{jsonl,txt}) and overhead.txt:
# the median step over steps 21-200 of each run.
set -uo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd)
gpulint=$(realpath "${1:?usage: overhead_on_gpu.sh GPULINT OUT_DIR [ROUNDS]}")
out=$(realpath "${2:?usage: overhead_on_gpu.sh GPULINT OUT_DIR [ROUNDS]}")
rounds=${3:-2}
python=${PYTHON:-python3}
export GPULINT_VERIFY_DIR="$root/verify"
declare -A folder=([good]="$root/verify" [pitfalls]="$root/tests/verify_run/gpu")
declare -A script=([good]=gpu201_training_loop_good.py [pitfalls]=resnet_pitfalls.py)
for round in $(seq "$rounds"); do
  for name in good pitfalls; do
    cd "${folder[$name]}"
    "$python" "${script[$name]}" --steps 200 > "$out/$name-plain-$round.out" 2>&1
    "$gpulint" verify --run --steps 100000 --eval-steps 100000 --save-trace "$out/$name-run-$round.jsonl" \
      -- "$python" "${script[$name]}" --steps 200 > "$out/$name-run-$round.txt" 2> "$out/$name-run-$round.out"
    # the plan the runner wrote, echoed in its trace
    grep -m1 '"e":"plan"' "$out/$name-run-$round.jsonl" > "$out/$name.plan.json"
    PYTHONPATH="$root/verify/run" GPULINT_PROBE_TRACE="$out/$name-probe-$round.jsonl" \
      GPULINT_PROBE_FINDINGS="$out/$name.plan.json" GPULINT_PROBE_STEPS=100000 GPULINT_PROBE_EVAL_STEPS=100000 \
      "$python" "${script[$name]}" --steps 200 > "$out/$name-probe-$round.out" 2>&1
    echo "round $round $name done"
  done
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
    for kind in ("plain", "run", "probe"):
        values = [median_step("%s/%s-%s-%d.out" % (out, name, kind, r)) for r in range(1, rounds + 1)]
        extra = ["%+.1f%%" % ((v / statistics.mean(plain) - 1) * 100) for v in values]
        print("%-9s %-6s %s   %s" % (name, kind, "  ".join("%.2f ms" % v for v in values), "  ".join(extra)))
PY
cat "$out/overhead.txt"
