#!/usr/bin/env bash
# Start-up with and without a model checkpoint on a stored log of a 16,000-GPU fleet (io.lifeline.runtime.StartupBenchmark):
# writes DAYS days of the log into an embedded PostgreSQL kept in DATA_DIR (reused by later runs; delete it to write it
# again), then rebuilds the model from the whole log and from a checkpoint plus 5 minutes of log after it, and last
# starts the packaged application on it three times (build it first: ./mvnw -DskipTests package), timed until ready.
# Usage: bench/startup.sh [days] [data-dir]     (30 days is about 138M rows; 3 days, the default, a tenth of it)
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
days="${1:-3}"
data="${2:-$here/target/startup-bench-pg}"
cd "$here"
./mvnw -q -o -B -DskipFrontend -Dcheckstyle.skip test-compile
./mvnw -q -o -B dependency:build-classpath -Dmdep.outputFile=target/classpath.txt >/dev/null
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
java -Xmx8g -Dlifeline.jar="$here/target/quarkus-app/quarkus-run.jar" -cp "target/test-classes:target/classes:$(cat target/classpath.txt)" io.lifeline.runtime.StartupBenchmark \
    "$days" "$data"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
