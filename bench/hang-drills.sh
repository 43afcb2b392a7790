#!/usr/bin/env bash
# Hang drills, N times: HangIT (the packaged Lifeline, real torchrun agents running examples/hang_drill.py) run N times;
# each run prints one HANG-DRILL line per drill. Prints, per drill, the seconds from the last step to the detection
# (p50, p99), the recovery times, the process group's timeout with the policy off, and the false detections over the
# healthy runs (a slow save, a declared evaluation phase, a plain run).
#
# Usage: bench/hang-drills.sh [runs]          (default 5)
#   MVN            the Maven command (default ./mvnw), for example to run it under a lock
#   HANG_DRILLS_PACKAGED=1   skip packaging on the first run too (target/quarkus-app and the test classes are current)
# The lines are kept in target/benchmarks/hang-drills/lines.txt, each run's Maven log beside them; the summary is
# printed and written to summary.json there.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
runs="${1:-5}"
mvn="${MVN:-./mvnw}"
out="$here/target/benchmarks/hang-drills"
mkdir -p "$out"
: > "$out/lines.txt"
cd "$here"
report="target/failsafe-reports/io.lifeline.it.HangIT-output.txt"
for i in $(seq 1 "$runs"); do
    echo "== run $i of $runs (load average $(cut -d' ' -f1-3 /proc/loadavg))"
    rm -f "$report"
    if [ "$i" -eq 1 ] && [ -z "${HANG_DRILLS_PACKAGED:-}" ]; then
        # The first run packages the application and compiles the tests; later runs reuse both.
        goals=(verify -DskipPythonTests -Dlifeline.setup.skip -Dtest=NONE -Dsurefire.failIfNoSpecifiedTests=false)
    else
        goals=(failsafe:integration-test)
    fi
    # shellcheck disable=SC2086 # MVN may hold a command with its own arguments
    $mvn -o -B "${goals[@]}" -Dit.test=HangIT > "$out/run-$i.log" 2>&1 \
        || echo "   run $i: HangIT failed, its drills' lines are kept (see $out/run-$i.log)"
    if [ -f "$report" ]; then
        grep -h '^HANG-DRILL ' "$report" | sed "s/^HANG-DRILL /$i /" | tee -a "$out/lines.txt" | cut -c1-160
    else
        echo "   run $i: no test output ($report)"
    fi
done

python3 - "$out/lines.txt" "$out/summary.json" <<'EOF'
import json
import math
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


def pct(values, p):
    """Nearest-rank percentile (p99 of a few runs is their worst)."""
    if not values:
        return None
    v = sorted(values)
    return v[max(0, math.ceil(p / 100.0 * len(v)) - 1)]


def stats(values):
    return {"n": len(values), "p50": pct(values, 50), "p99": pct(values, 99),
            "min": min(values) if values else None, "max": max(values) if values else None}


summary = {"runs": len({d["run"] for d in drills}), "hangs": {}, "healthy": {}}
for key in sorted({(d["drill"], d["policy"]) for d in drills if not d["drill"].startswith("healthy")}):
    ds = [d for d in drills if (d["drill"], d["policy"]) == key]
    name = "%s (policy %s)" % key
    entry = {"drills": len(ds),
             "detected": sum(1 for d in ds if "detectSeconds" in d),
             "detectSeconds": stats([d["detectSeconds"] for d in ds if "detectSeconds" in d]),
             "thresholdSeconds": sorted({d["thresholdSeconds"] for d in ds if "thresholdSeconds" in d}),
             "kinds": sorted({d["kind"] for d in ds if d.get("kind")}),
             "verdictKinds": sorted({d["verdictKind"] for d in ds if d.get("verdictKind")})}
    for k in ("polledSeconds", "restartSeconds", "resumedSeconds", "timeoutSeconds"):
        vals = [d[k] for d in ds if k in d]
        if vals:
            entry[k] = stats(vals)
    hm = [d["hangMillis"] / 1000.0 for d in ds if "hangMillis" in d]
    if hm:
        entry["incidentHangSeconds"] = stats(hm)
    summary["hangs"][name] = entry
healthy = [d for d in drills if d["drill"].startswith("healthy")]
for name in sorted({d["drill"] for d in healthy}):
    ds = [d for d in healthy if d["drill"] == name]
    summary["healthy"][name] = {"runs": len(ds), "runsWithADetection": sum(1 for d in ds if d.get("detections", 0)),
                                "runsWithADetectionWhileRunning": sum(1 for d in ds if d.get("detectionsWhileRunning", 0)),
                                "runsWithADetectionAfterEnd": sum(1 for d in ds if d.get("detectionsAfterEnd", 0)
                                                                  or d.get("hangEvents", 0)),
                                "verdictsSuspected": sum(d.get("detections", 0) for d in ds),
                                "verdictsRead": sum(d.get("verdicts", 0) for d in ds),
                                "hangIncidents": sum(1 for d in ds if d.get("hangIncident"))}
summary["falseDetections"] = {
    "healthyRuns": len(healthy),
    "runsWithADetection": sum(1 for d in healthy
                              if d.get("detections", 0) or d.get("hangIncident") or d.get("hangEvents", 0)),
    "whileRunning": sum(1 for d in healthy if d.get("detectionsWhileRunning", 0)),
    "afterTheRunEnded": sum(1 for d in healthy if d.get("detectionsAfterEnd", 0) or d.get("hangEvents", 0))}
with open(target, "w") as f:
    json.dump(summary, f, indent=2)


def s(x):
    return "-" if x is None else "%.1f" % x


print()
print("%-28s %5s %9s %9s %9s %9s %9s" % ("drill", "n", "detect50", "detect99", "restart50", "resume50", "timeout50"))
for name, e in summary["hangs"].items():
    print("%-28s %5d %9s %9s %9s %9s %9s" % (
        name, e["drills"], s(e["detectSeconds"]["p50"]), s(e["detectSeconds"]["p99"]),
        s(e.get("restartSeconds", {}).get("p50")), s(e.get("resumedSeconds", {}).get("p50")),
        s(e.get("timeoutSeconds", {}).get("p50"))))
print()
for name, e in summary["healthy"].items():
    print("%-28s runs %d, runs with a detection %d, suspected verdicts %d of %d read, hang incidents %d" % (
        name, e["runs"], e["runsWithADetection"], e["verdictsSuspected"], e["verdictsRead"], e["hangIncidents"]))
fd = summary["falseDetections"]
print("false detections: %d of %d healthy runs (%d while training, %d after the run ended)" % (
    fd["runsWithADetection"], fd["healthyRuns"], fd["whileRunning"], fd["afterTheRunEnded"]))
print("(seconds from the last step in the script's record; detection: the time of Lifeline's job.hang_suspected)")
EOF
