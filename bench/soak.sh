#!/usr/bin/env bash
# Heap under spot churn: drives the real model (telemetry sampler, bounded model queue, fleet and jobs, snapshots
# and history drains) with the built-in simulator at high churn, and prints the heap used after a full GC every
# minute, then first, last, max and the slope (io.lifeline.ingest.SpotChurnSoak).
# Usage: bench/soak.sh [minutes] [speed]   (defaults: 60 minutes of wall time, simulated time 30 times faster)
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
minutes="${1:-60}"
speed="${2:-30}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

cd "$here"
./mvnw -q -o -B -DskipFrontend -Dcheckstyle.skip test-compile
./mvnw -q -o -B dependency:build-classpath -Dmdep.outputFile="$work/deps.txt" >/dev/null
cp="$here/target/test-classes:$here/target/classes:$(cat "$work/deps.txt")"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
java -Xmx1g -XX:+UseG1GC -cp "$cp" io.lifeline.ingest.SpotChurnSoak --minutes "$minutes" --speed "$speed" \
    --sample-seconds 60
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
