#!/usr/bin/env bash
# The dcgm parse figure (dcgm_scrapes_per_s): per-thread CPU time of parsing and translating the 8-GPU scrape.
# Usage: bench/dcgm-parse.sh [runs] [scrapes per run]; prints one JSON object.
set -euo pipefail
cd "$(dirname "$0")/.."
./mvnw -q -o -B -DskipFrontend -Dcheckstyle.skip test-compile >&2
[ -s target/classpath.txt ] || ./mvnw -q -o -B dependency:build-classpath -Dmdep.outputFile=target/classpath.txt >&2
java -Xmx1g -cp "target/test-classes:target/classes:$(cat target/classpath.txt)" \
    io.lifeline.connector.inbound.dcgm.DcgmParseCpuTime "${1:-5}" "${2:-20000}"
