#!/usr/bin/env bash
# Ingest throughput side by side in one run: bare Kafka consumer, Kafka into applied state, HTTP batches of 1,000
# (in-process client, and a load generator in its own JVM: JSON arrays and NDJSON). Usage: bench/ingest.sh [runs]
# Prints the figures as JSON (also in target/benchmarks/ingest.json; the table in target/benchmarks/ingest.md).
# The application runs with the production refresh intervals and buffer (the test profile refreshes the metrics and
# the alert rules every second and keeps a small store buffer, to make tests fast), after one uncounted warm-up pass.
set -euo pipefail
cd "$(dirname "$0")/.."
runs="${1:-5}"
mkdir -p target
rm -f target/benchmarks/ingest.json
./mvnw -q -o -B -DskipFrontend -DskipPythonTests -Dcheckstyle.skip test -Dgroups=benchmark -DexcludedGroups= \
    -Dtest=IngestThroughputBenchmark -Dbench.runs="$runs" -Dlifeline.metrics.snapshot-interval=5s \
    -Dlifeline.alerts.evaluation-interval=15s -Dlifeline.ingest.buffer-events=200000 ${BENCH_OPTS:-} > target/ingest-bench.log 2>&1 \
    || { tail -60 target/ingest-bench.log >&2; exit 1; }
cat target/benchmarks/ingest.json
