#!/usr/bin/env bash
# Recovery drills, N times: RecoveryIT (the packaged Lifeline with the recovery ladder on, the Kubernetes connector on
# the mock API server, real torchrun agents running examples/crash_drill.py) run N times; each run prints one
# RECOVERY-DRILL line per drill. Prints the medians over the runs of the restart times of each rung (from the script's
# own record: the failure or the kill to the first step after it) and of the GPU-hours (rank-hours on CPU) a stop of
# a crash-looping job saved against running out its torchrun restarts.
#
# Usage: bench/recovery-drills.sh [runs]          (default 3)
#   MVN            the Maven command (default ./mvnw), for example to run it under a lock
#   RECOVERY_DRILLS_PACKAGED=1   skip packaging on the first run too (target/quarkus-app and the test classes are
#                                current)
# The lines are kept in target/benchmarks/recovery-drills/lines.txt, each run's Maven log beside them; the summary is
# printed and written to summary.json there.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
runs="${1:-3}"
mvn="${MVN:-./mvnw}"
out="$here/target/benchmarks/recovery-drills"
mkdir -p "$out"
: > "$out/lines.txt"
cd "$here"
report="target/failsafe-reports/io.lifeline.it.RecoveryIT-output.txt"
for i in $(seq 1 "$runs"); do
    echo "== run $i of $runs (load average $(cut -d' ' -f1-3 /proc/loadavg))"
    rm -f "$report"
    if [ "$i" -eq 1 ] && [ -z "${RECOVERY_DRILLS_PACKAGED:-}" ]; then
        # The first run packages the application and compiles the tests; later runs reuse both.
        goals=(verify -DskipPythonTests -Dlifeline.setup.skip -Dtest=NONE -Dsurefire.failIfNoSpecifiedTests=false)
    else
        goals=(failsafe:integration-test)
    fi
    # shellcheck disable=SC2086 # MVN may hold a command with its own arguments
    $mvn -o -B "${goals[@]}" -Dit.test=RecoveryIT > "$out/run-$i.log" 2>&1 \
        || echo "   run $i: RecoveryIT failed, its drills' lines are kept (see $out/run-$i.log)"
    if [ -f "$report" ]; then
        grep -h '^RECOVERY-DRILL ' "$report" | sed "s/^RECOVERY-DRILL /$i /" | tee -a "$out/lines.txt" | cut -c1-160
    else
        echo "   run $i: no test output ($report)"
    fi
done

python3 - "$out/lines.txt" "$out/summary.json" <<'EOF'
import json
import statistics
import sys

lines, target = sys.argv[1], sys.argv[2]
drills = []
with open(lines) as f:
    for line in f:
        run, _, body = line.strip().partition(" ")
        if body:
            d = json.loads(body)
            d["run"] = int(run)
            drills.append(d)


def values(drill, key):
    return [d[key] for d in drills if d.get("drill") == drill and isinstance(d.get(key), (int, float))]


def median(vs):
    return statistics.median(vs) if vs else None


# The figures the benchmarks quote, each the median over the runs that measured it (with how many did).
figures = {
    "recovery_seconds_in_place": ("recovery-time", "inPlaceSeconds"),
    "recovery_seconds_pod_recreate": ("recovery-time", "podRecreateSeconds"),
    "recovery_seconds_full_restart": ("recovery-time", "fullRestartSeconds"),
    "crashloop_gpu_hours_saved": ("workload-error", "crashloopGpuHoursSaved"),
    "crashloop_rank_seconds_with_ladder": ("workload-error", "onRankSeconds"),
    "crashloop_rank_seconds_without_ladder": ("workload-error", "offRankSeconds"),
    "failing_node_advice_seconds": ("failing-node", "adviceSecondsFromSecondFailure"),
    "failing_node_resumed_alone_seconds": ("failing-node", "resumedAloneSecondsFromEviction"),
}
summary = {"runs": len({d["run"] for d in drills})}
for name, (drill, key) in figures.items():
    vs = values(drill, key)
    summary[name] = {"median": median(vs), "n": len(vs), "min": min(vs) if vs else None,
                     "max": max(vs) if vs else None}
outcomes = {}
for d in drills:
    o = outcomes.setdefault(d["drill"], {"lines": 0, "verdicts": []})
    o["lines"] += 1
    for k in ("onVerdict", "verdict", "nextVerdict", "next"):
        if d.get(k):
            o["verdicts"].append(d[k])
summary["drills"] = outcomes
with open(target, "w") as f:
    json.dump(summary, f, indent=2)


def s(x):
    return "-" if x is None else ("%.4f" % x if abs(x) < 1 else "%.1f" % x)


print()
print("%-40s %10s %4s %10s %10s" % ("figure", "median", "n", "min", "max"))
for name in figures:
    e = summary[name]
    print("%-40s %10s %4d %10s %10s" % (name, s(e["median"]), e["n"], s(e["min"]), s(e["max"])))
print("(recovery seconds: the failure, or the kill, to the first step after it in the script's record; GPU-hours are "
      "rank-hours on CPU: held time x ranks)")
EOF
