#!/usr/bin/env bash
# The what-if of the demo's largest job (research/llama3-70b-pretrain, 128 GPUs; the built-in demo scenario simulated
# over 90 minutes, as the dashboard tests feed it), notice policy off and on at 300, 900 and 1800 s and the advice:
# POST /api/v1/whatif asked 15 times over HTTP against the whole application (io.lifeline.ui.WhatIfTimingTest, which
# checks every answer but asserts nothing on speed). Prints the first (cold) and the median of the other runs, and the
# load average before and after; the figures are in target/whatif-timing.json.
# Usage: bench/whatif-latency.sh
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
cd "$here"
before="$(cut -d' ' -f1-3 /proc/loadavg)"
rm -f target/whatif-timing.json
./mvnw -q -o -B -DskipFrontend -DskipPythonTests test -Dtest=WhatIfTimingTest -Dsurefire.failIfNoSpecifiedTests=false >/dev/null
after="$(cut -d' ' -f1-3 /proc/loadavg)"
echo "load average before: $before, after: $after"
cat target/whatif-timing.json
