#!/usr/bin/env bash
# The notice reaction benchmark (io.lifeline.policy.NoticeReactionBenchmark) on this checkout and on an earlier
# commit, alternating, in one run. Usage: bench/notice-reaction-pair.sh [previous-commit] [pairs]
# Each run's table is kept in target/benchmarks/pair/<n>-<version>.md. Both versions run with the production refresh
# intervals and store buffer, as bench/ingest.sh does (BENCH_OPTS replaces them).
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
previous="${1:-0315c84}"
pairs="${2:-3}"
opts="${BENCH_OPTS:--Dlifeline.metrics.snapshot-interval=5s -Dlifeline.alerts.evaluation-interval=15s -Dlifeline.ingest.buffer-events=200000}"
work="$(mktemp -d)"
trap 'git -C "$here" worktree remove --force "$work/previous" >/dev/null 2>&1 || true; rm -rf "$work"' EXIT
out="$here/target/benchmarks/pair"
mkdir -p "$out"
git -C "$here" worktree add --detach "$work/previous" "$previous" >/dev/null
# The benchmark switches the automation brake off itself; an earlier commit's copy may not, and its brake would hold
# the drains past the tenth. Only a commit that has the brake gets the property: an unknown lifeline.* property stops
# the application at start-up.
previous_opts="$opts"
if grep -q 'Brake brake()' "$work/previous/src/main/java/io/lifeline/config/PoliciesConfig.java" 2>/dev/null; then
    previous_opts="$opts -Dlifeline.policies.brake.enabled=false"
fi

run() { # $1 directory, $2 label, $3 run number, $4 the JVM's options
    echo "== run $3: $2 (load average $(cut -d' ' -f1-3 /proc/loadavg))"
    (cd "$1" && ./mvnw -q -o -B -DskipFrontend -DskipPythonTests -Dcheckstyle.skip test -Dgroups=benchmark \
        -DexcludedGroups= -Dtest=NoticeReactionBenchmark $4 > "$out/$3-$2.log" 2>&1) || { tail -40 "$out/$3-$2.log"; exit 1; }
    cp "$1/target/benchmarks/notice-reaction.md" "$out/$3-$2.md"
    grep -E "CreateTime: p(50|99)|phase" "$out/$3-$2.md" || true
}
for i in $(seq 1 "$pairs"); do
    if (( i % 2 )); then
        run "$work/previous" previous "$i" "$previous_opts"; run "$here" current "$i" "$opts"
    else
        run "$here" current "$i" "$opts"; run "$work/previous" previous "$i" "$previous_opts"
    fi
done
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
