#!/usr/bin/env bash
# CPU time of decoding a structured-mode CloudEvent from a Kafka record, one thread, this checkout and optionally an
# earlier commit's codec side by side (alternating JVMs): io.lifeline.ingest.kafka.DecodeCpuTime.
# Usage: bench/decode.sh [pairs] [earlier-commit]       e.g. bench/decode.sh 3 97fe7ad
# With JFR=<dir>, each JVM also writes a flight recording there (drawn with bench/flamegraph.py).
set -euo pipefail
cd "$(dirname "$0")/.."
pairs="${1:-3}"
earlier="${2:-}"
./mvnw -q -o -B -DskipFrontend -Dcheckstyle.skip test-compile
./mvnw -q -o -B dependency:build-classpath -Dmdep.outputFile=target/classpath.txt >/dev/null
cp="target/test-classes:target/classes:$(cat target/classpath.txt)"
old=""
if [ -n "$earlier" ]; then
  old="$(mktemp -d)"
  trap 'rm -rf "$old"' EXIT
  mkdir -p "$old/src" "$old/classes"
  # Only the codec and the record decoder of the earlier commit, in front of this checkout's classes.
  git archive "$earlier" src/main/java/io/lifeline/codec src/main/java/io/lifeline/ingest/kafka/RecordDecoder.java \
      | tar -x -C "$old/src"
  javac -nowarn -d "$old/classes" -cp "$cp" $(find "$old/src" -name '*.java')
fi
jfr() { [ -n "${JFR:-}" ] && mkdir -p "$JFR" && echo "-XX:StartFlightRecording=filename=$JFR/$1.jfr,settings=profile" || true; }
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
for i in $(seq 1 "$pairs"); do
  if [ -n "$old" ]; then
    echo "earlier ($earlier): $(java $(jfr "earlier-$i") -cp "$old/classes:$cp" io.lifeline.ingest.kafka.DecodeCpuTime | tail -1)"
  fi
  echo "this checkout: $(java $(jfr "current-$i") -cp "$cp" io.lifeline.ingest.kafka.DecodeCpuTime | tail -1)"
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
