#!/usr/bin/env bash
# Flame graphs of the Kafka and HTTP ingest paths under the ingest benchmark's load: one run of
# IngestThroughputBenchmark with each phase recorded by the JDK's flight recorder (execution samples every 10 ms), then
# each recording drawn as an SVG by bench/flamegraph.py. Usage: bench/profile.sh <label>
# Writes bench/profiles/<label>-{kafka,http,http-own-process}.svg (and .folded stacks beside them).
set -euo pipefail
cd "$(dirname "$0")/.."
label="${1:?usage: bench/profile.sh <label>}"
dir="$PWD/target/profiles/$label"
rm -rf "$dir"
BENCH_OPTS="-Dbench.jfr=$dir ${BENCH_OPTS:-}" bench/ingest.sh "${RUNS:-1}" > /dev/null
for phase in kafka http http-own-process; do
    [ -f "$dir/$phase.jfr" ] && python3 bench/flamegraph.py "$dir/$phase.jfr" "bench/profiles/$label-$phase.svg" \
        "$label: $phase ingest ($(cut -d' ' -f1-3 /proc/loadavg))"
done
