#!/usr/bin/env bash
# How long the periodic whole-model reads hold the model's thread: this checkout beside an earlier commit, in one
# run (io.lifeline.demo.ModelHoldBenchmark). Usage: bench/model-hold.sh [previous-commit] [rounds] [--nodes N --jobs N]
# The earlier commit is built in a temporary worktree, with this checkout's HoldProbe copied in (it finds each
# version's reads by name).
# HOLD_JAVA_OPTS replaces the JVM options (default -Xmx6g; two 64k fleets need about 16g).
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
previous="${1:-0315c84}"
rounds="${2:-120}"
shift $(( $# < 2 ? $# : 2 ))
work="$(mktemp -d)"
trap 'git -C "$here" worktree remove --force "$work/previous" >/dev/null 2>&1 || true; rm -rf "$work"' EXIT

cd "$here"
./mvnw -q -o -B -DskipFrontend -Dcheckstyle.skip test-compile
./mvnw -q -o -B dependency:build-classpath -Dmdep.outputFile="$work/deps.txt" >/dev/null

git worktree add --detach "$work/previous" "$previous" >/dev/null
cp src/test/java/io/lifeline/demo/HoldProbe.java "$work/previous/src/test/java/io/lifeline/demo/"
(cd "$work/previous" && ./mvnw -q -o -B -DskipFrontend -Dcheckstyle.skip test-compile)

deps="$(cat "$work/deps.txt")"
current_cp="$here/target/test-classes:$here/target/classes:$deps"
previous_cp="$work/previous/target/test-classes:$work/previous/target/classes:$deps"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
java ${HOLD_JAVA_OPTS:--Xmx6g} -cp "$current_cp" io.lifeline.demo.ModelHoldBenchmark --current "$current_cp" --previous "$previous_cp" \
    --rounds "$rounds" "$@"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
