#!/usr/bin/env bash
# The cost curve: what one replica's model costs at 1k, 4k, 16k, 64k and 256k GPUs (nodes x 8, one job per 32 GPUs,
# telemetry every 10 s), each size in its own JVM (io.lifeline.runtime.CostCurveBenchmark), smallest first. Writes
# bench/cost-curve.json, merges its figures into bench/results.json and prints the BENCHMARKS.md table
# (bench/cost_curve_report.py), and draws bench/cost-curve.png (io.lifeline.runtime.CostCurvePlot, Java2D).
# Usage: bench/cost-curve.sh [sizes...]        (default: 1024 4096 16384 65536 262144)
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
cd "$here"
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(1024 4096 16384 65536 262144)
./mvnw -q -o -B -DskipFrontend -Dcheckstyle.skip test-compile
./mvnw -q -o -B dependency:build-classpath -Dmdep.outputFile=target/classpath.txt >/dev/null
cp="target/test-classes:target/classes:$(cat target/classpath.txt)"
lines="$(mktemp)"
trap 'rm -f "$lines"' EXIT
before="$(cut -d' ' -f1-3 /proc/loadavg)"
echo "load average before: $before"
for gpus in "${sizes[@]}"; do
  # Heap for the simulator's fleet and the model; the simulator, not the model, needs most of it at 256k.
  java -Xmx12g -XX:+UseParallelGC -cp "$cp" io.lifeline.runtime.CostCurveBenchmark --gpus "$gpus" --out "$lines"
done
after="$(cut -d' ' -f1-3 /proc/loadavg)"
echo "load average after: $after"
python3 - "$lines" "$before" "$after" "${sizes[*]}" <<'PY'
import json, sys, datetime
lines, before, after, sizes = sys.argv[1:]
points = [json.loads(l) for l in open(lines) if l.strip()]
command = "bench/cost-curve.sh" + ("" if sizes == "1024 4096 16384 65536 262144" else " " + sizes)
doc = {"command": command, "load_average_before": before, "load_average_after": after, "points": points}
with open("bench/cost-curve.json", "w") as f:
    json.dump(doc, f, indent=2)
    f.write("\n")

PY
python3 bench/cost_curve_report.py
java -Djava.awt.headless=true -cp "$cp" io.lifeline.runtime.CostCurvePlot bench/cost-curve.json bench/cost-curve.png \
    bench/cost-curve-http.json
