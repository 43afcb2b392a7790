#!/usr/bin/env bash
# One point of the cost curve (io.lifeline.runtime.CostCurveBenchmark) on this checkout and on an earlier commit,
# alternating, in one run: the earlier commit's main classes under this checkout's benchmark, so what differs is the
# application's code. Usage: bench/cost-point-pair.sh previous-commit [gpus] [pairs]
# Prints each run's holds and, at the end, each version's medians; the runs are kept in
# target/benchmarks/cost-point-pair/<version>.jsonl.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
previous="${1:?usage: bench/cost-point-pair.sh previous-commit [gpus] [pairs]}"
gpus="${2:-65536}"
pairs="${3:-5}"
work="$(mktemp -d)"
trap 'git -C "$here" worktree remove --force "$work/previous" >/dev/null 2>&1 || true; rm -rf "$work"' EXIT
out="$here/target/benchmarks/cost-point-pair"
rm -rf "$out"
mkdir -p "$out"
git -C "$here" worktree add --detach "$work/previous" "$previous" >/dev/null
(cd "$work/previous" && ./mvnw -q -o -B -DskipFrontend -Dcheckstyle.skip compile)
cd "$here"
./mvnw -q -o -B -DskipFrontend -Dcheckstyle.skip test-compile
./mvnw -q -o -B dependency:build-classpath -Dmdep.outputFile=target/classpath.txt >/dev/null
deps="$(cat target/classpath.txt)"
run() { # $1 main classes, $2 label
    java -Xmx12g -XX:+UseParallelGC -cp "target/test-classes:$1:$deps" io.lifeline.runtime.CostCurveBenchmark \
        --gpus "$gpus" --out "$out/$2.jsonl" | grep -o '"\(snapshot\|checkpoint_save\)[a-z_]*_median_ms": [0-9.]*' \
        | tr '\n' ' ' | sed "s/^/$2: /"
    echo
}
echo "load average at the start: $(cut -d' ' -f1-3 /proc/loadavg)"
for i in $(seq 1 "$pairs"); do
    if (( i % 2 )); then
        run "$work/previous/target/classes" previous; run target/classes current
    else
        run target/classes current; run "$work/previous/target/classes" previous
    fi
done
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
python3 - "$out" <<'PY'
import json, os, statistics, sys
out = sys.argv[1]
keys = ["snapshot_hold_median_ms", "checkpoint_save_hold_median_ms", "checkpoint_save_fleet_hold_median_ms",
        "checkpoint_save_jobs_hold_median_ms", "applied_events_per_s", "heap_bytes_per_gpu"]
for version in ("previous", "current"):
    points = [json.loads(l) for l in open(os.path.join(out, version + ".jsonl")) if l.strip()]
    for k in keys:
        runs = [p[k] for p in points]
        print("%-8s %-38s median %14.2f  runs %s" % (version, k, statistics.median(runs), ", ".join("%.2f" % r for r in runs)))
PY
