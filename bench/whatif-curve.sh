#!/usr/bin/env bash
# The ETTR-against-interval chart of docs/whatif.md: a simulated job with Poisson interruptions (rate 1/M), checkpoint
# cost C and recovery R replayed through the jobs model at intervals from 0.25 to 3 times Daly's optimum
# (io.lifeline.domain.replay.WhatIfCurve, the simulation of YoungDalyPropertyTest), written to bench/whatif-curve.json
# and drawn as bench/whatif-curve.png (io.lifeline.runtime.WhatIfCurvePlot, Java2D, like bench/cost-curve.png).
# Usage: bench/whatif-curve.sh [--c 120] [--m 21600] [--r 300] [--seed 18]      (seconds; the defaults are the figure's)
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
cd "$here"
./mvnw -q -o -B -DskipFrontend -Dcheckstyle.skip test-compile
./mvnw -q -o -B dependency:build-classpath -Dmdep.outputFile=target/classpath.txt >/dev/null
cp="target/test-classes:target/classes:$(cat target/classpath.txt)"
java -cp "$cp" io.lifeline.domain.replay.WhatIfCurve "$@" --out bench/whatif-curve.json
java -Djava.awt.headless=true -cp "$cp" io.lifeline.runtime.WhatIfCurvePlot bench/whatif-curve.json bench/whatif-curve.png
