#!/usr/bin/env bash
# A flame graph of the model snapshot's hold of the model thread at 64k GPUs: the cost curve's 64k point
# (io.lifeline.runtime.CostCurveBenchmark) recorded by the flight recorder with an execution sample every millisecond,
# drawn from ModelSnapshot.take up. Usage: bench/snapshot-profile.sh <label> [gpus]
# Writes bench/profiles/snapshot-<gpus>-<label>.svg (and .folded beside it).
set -euo pipefail
cd "$(dirname "$0")/.."
label="${1:?usage: bench/snapshot-profile.sh <label> [gpus]}"
gpus="${2:-65536}"
./mvnw -q -o -B -DskipFrontend -Dcheckstyle.skip test-compile
./mvnw -q -o -B dependency:build-classpath -Dmdep.outputFile=target/classpath.txt >/dev/null
cp="target/test-classes:target/classes:$(cat target/classpath.txt)"
mkdir -p target/profiles
jfr="target/profiles/snapshot-$gpus-$label.jfr"
java -Xmx12g -XX:+UseParallelGC \
    "-XX:StartFlightRecording=filename=$jfr,settings=profile,jdk.ExecutionSample#period=1ms" \
    -cp "$cp" io.lifeline.runtime.CostCurveBenchmark --gpus "$gpus" --out /dev/null | grep -o '"snapshot_hold_median_ms": [0-9.]*'
python3 bench/flamegraph.py "$jfr" "bench/profiles/snapshot-$gpus-$label.svg" \
    "$label: the model snapshot at $gpus GPUs ($(cut -d' ' -f1-3 /proc/loadavg))" --only io.lifeline.runtime.ModelSnapshot.take
