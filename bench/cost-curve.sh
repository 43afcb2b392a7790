#!/usr/bin/env bash
# The cost curve: what one replica's model costs at 1k, 4k, 16k, 64k and 256k GPUs (nodes x 8, one job per 32 GPUs,
# telemetry every 10 s), each size in its own JVM (io.lifeline.runtime.CostCurveBenchmark), smallest first. Writes
# bench/cost-curve.json, draws bench/cost-curve.png (io.lifeline.runtime.CostCurvePlot, Java2D), merges the figures
# into bench/results.json and prints the BENCHMARKS.md table.
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

def op(v, t):
    o, x = t.split()
    return {"<": v < float(x), "<=": v <= float(x), ">=": v >= float(x)}[o]

figures = []
rows = []
for p in points:
    k = "%dk" % (p["gpus"] // 1024)
    def fig(metric, field, unit, target=None):
        v = round(p[field], 3 if p[field] < 100 else 0)
        if v == int(v):
            v = int(v)
        name = "cost_%s_%s" % (metric, k)
        figures.append({"name": name, "value": v, "unit": unit, "runs": [v], "median": v, "target": target,
                        "met": None if target is None else op(v, target), "command": command,
                        "measured_at": p["measured_at"][:19] + "Z", "load_average": p["load_average"],
                        "note": "%d GPUs, %d nodes, %d jobs; one run (%s)" % (p["gpus"], p["nodes"], p["jobs"], field)})
        return name, v
    at64 = "< 5" if p["gpus"] == 65536 else None
    cells = [fig("offered_events_per_s", "offered_events_per_s", "events/s"),
             fig("applied_events_per_s", "applied_events_per_s", "events/s", ">= %d" % round(p["offered_events_per_s"])),
             fig("heap_bytes_per_gpu", "heap_bytes_per_gpu", "bytes", "<= 2048"),
             fig("snapshot_hold_max_ms", "snapshot_hold_max_ms", "ms", at64),
             fig("api_gpus_hold_max_ms", "api_gpus_page_hold_max_ms", "ms", at64),
             fig("api_jobs_hold_max_ms", "api_jobs_page_hold_max_ms", "ms", at64),
             fig("checkpoint_save_hold_max_ms", "checkpoint_save_hold_max_ms", "ms", at64),
             fig("checkpoint_restore_ms", "checkpoint_restore_ms", "ms")]
    rows.append("| %s (%s nodes, %s jobs) | %s | `%s` |" % (
        "{:,}".format(p["gpus"]), "{:,}".format(p["nodes"]), "{:,}".format(p["jobs"]),
        " | ".join("{:,}".format(v) if isinstance(v, int) else str(v) for _, v in cells),
        "`, `".join(n for n, _ in cells)))
with open("bench/results.json") as f:
    results = json.load(f)
names = {x["name"] for x in figures}
results = [x for x in results if x["name"] not in names] + figures
with open("bench/results.json", "w") as f:
    json.dump(results, f, indent=2, ensure_ascii=False)
    f.write("\n")
print("| GPUs | offered events/s | applied events/s, model thread | heap bytes per GPU | snapshot hold max ms | "
      "/api/v1/gpus hold max ms | /api/v1/jobs hold max ms | checkpoint save hold max ms | checkpoint restore ms | figure |")
print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---|")
print("\n".join(rows))
PY
java -Djava.awt.headless=true -cp "$cp" io.lifeline.runtime.CostCurvePlot bench/cost-curve.json bench/cost-curve.png
