#!/usr/bin/env bash
# The cost curve over HTTP, against the packaged application: at 1k, 4k, 16k, 64k and 256k GPUs (nodes x 8, one job per
# 32 GPUs, telemetry and progress every 10 s: the simulator's large fleet, as in bench/cost-curve.sh), each size on a
# fresh embedded PostgreSQL in target/cost-curve-http/<gpus>, started as the quick start starts it (java -jar
# target/quarkus-app/quarkus-run.jar, demo fleet off, APP_HEAP, default 6g: the JVM's default on a 24 GiB machine):
#   1. io.lifeline.bench.FleetHttpLoad, in a JVM of its own, sends the fleet over POST /api/v1/events in batches of
#      1,000 (FILL simulated seconds, default 60, as fast as the server takes them, then at the fleet's real rate,
#      GPUs/10 gpu.sample per second plus progress and lifecycle) and, once caught up with the clock (or CATCHUP
#      seconds, default 300, behind it: a server slower than the fleet never catches up), READERS threads
#      (default 4) on keep-alive connections alternate GET /api/v1/jobs and GET /api/v1/gpus (first page, default page
#      size, admin token); WARM seconds (default 10) dropped, then timed until each endpoint has REQUESTS (default
#      3000) or MEASURE seconds (default 180) have passed; p50/p90/p99/max, and the ingest rate achieved meanwhile.
#   2. The application is stopped with SIGTERM (it writes a model checkpoint, as a stopping replica does) and started
#      RESTARTS times (default 3) on that database: seconds from the JVM's launch to /q/health/ready answering 200.
# Writes bench/cost-curve-http.json (every run; RUNS=n repeats each size n times), draws its panels into
# bench/cost-curve.png beside bench/cost-curve.json's, and prints the table and figures
# (bench/cost_curve_http_report.py; --merge there puts the medians into bench/results.json). Needs a JDK 17,
# python3 and the Maven cache. Memory: the server's heap plus the load generator's (LOAD_HEAP, 8g at 256k).
# Usage: bench/cost-curve-http.sh [sizes...]        (default: 1024 4096 16384 65536 262144)
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
cd "$here"
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(1024 4096 16384 65536 262144)
runs="${RUNS:-1}"
# The jar as the quick start builds it: a build with -DskipFrontend packages a development-mode UI that refuses to
# start outside the project directory.
production() {
  python3 - <<'PY'
import glob, json, sys, zipfile
jars = glob.glob("target/quarkus-app/app/*.jar")
try:
    info = json.loads(zipfile.ZipFile(jars[0]).read("META-INF/VAADIN/config/flow-build-info.json"))
    sys.exit(0 if info.get("productionMode") else 1)
except (IndexError, KeyError):
    sys.exit(1)
PY
}
if [ ! -f target/quarkus-app/quarkus-run.jar ] || ! production; then
  ./mvnw -q -o -B -DskipTests package
fi
./mvnw -q -o -B -DskipFrontend -Dcheckstyle.skip test-compile
./mvnw -q -o -B dependency:build-classpath -Dmdep.outputFile=target/classpath.txt >/dev/null
cp="target/test-classes:target/classes:$(cat target/classpath.txt)"
lines="$(mktemp)"
trap 'rm -f "$lines"' EXIT
before="$(cut -d' ' -f1-3 /proc/loadavg)"
echo "load average before: $before"
for gpus in "${sizes[@]}"; do
  for _ in $(seq "$runs"); do
    python3 bench/cost_curve_http.py "$cp" "$lines" "$gpus"
  done
done
after="$(cut -d' ' -f1-3 /proc/loadavg)"
echo "load average after: $after"
command="bench/cost-curve-http.sh"
[ "${sizes[*]}" = "1024 4096 16384 65536 262144" ] || command="$command ${sizes[*]}"
[ "$runs" = 1 ] || command="RUNS=$runs $command"
python3 - "$lines" "$before" "$after" "$command" <<'PY'
import json, sys
lines, before, after, command = sys.argv[1:]
points = [json.loads(l) for l in open(lines) if l.strip()]
doc = {"command": command, "load_average_before": before, "load_average_after": after, "points": points}
with open("bench/cost-curve-http.json", "w") as f:
    json.dump(doc, f, indent=2)
    f.write("\n")
PY
python3 bench/cost_curve_http_report.py
java -Djava.awt.headless=true -cp "$cp" io.lifeline.runtime.CostCurvePlot bench/cost-curve.json bench/cost-curve.png \
    bench/cost-curve-http.json
