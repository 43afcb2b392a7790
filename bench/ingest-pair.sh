#!/usr/bin/env bash
# The ingest benchmark (bench/ingest.sh) on this checkout and on an earlier commit, alternating, in one run: the same
# harness on both (this checkout's benchmark classes are laid over the earlier commit's tests), so what differs is the
# application's code. Usage: bench/ingest-pair.sh [previous-commit] [pairs]
# Each run's figures are kept in target/benchmarks/ingest-pair/<n>-<version>.json and its log beside them; the
# medians of each version's runs are printed at the end.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
previous="${1:?usage: bench/ingest-pair.sh previous-commit [pairs]}"
pairs="${2:-3}"
work="$(mktemp -d)"
trap 'git -C "$here" worktree remove --force "$work/previous" >/dev/null 2>&1 || true; rm -rf "$work"' EXIT
out="$here/target/benchmarks/ingest-pair"
rm -rf "$out"
mkdir -p "$out"
git -C "$here" worktree add --detach "$work/previous" "$previous" >/dev/null
# The harness: the benchmark, its load, and the testing helpers they use.
for f in src/test/java/io/lifeline/ingest/kafka/IngestThroughputBenchmark.java \
         src/test/java/io/lifeline/ingest/kafka/IngestLoad.java \
         src/test/java/io/lifeline/testing/ThreadCpu.java \
         src/test/java/io/lifeline/testing/StatementStats.java \
         src/test/java/io/lifeline/testing/PostgresResource.java \
         src/test/java/io/lifeline/bench/HttpLoadGenerator.java \
         bench/ingest.sh; do
    cp "$here/$f" "$work/previous/$f"
done
# A commit from before the event log's package was renamed (io.lifeline.store) gets the harness with that name.
if [ ! -d "$work/previous/src/main/java/io/lifeline/eventlog" ]; then
    sed -i 's/io\.lifeline\.eventlog\./io.lifeline.store./g' \
        "$work/previous/src/test/java/io/lifeline/ingest/kafka/"*.java "$work/previous/src/test/java/io/lifeline/testing/"*.java
fi

run() { # $1 directory, $2 label, $3 run number
    echo "== run $3: $2 (load average $(cut -d' ' -f1-3 /proc/loadavg))"
    (cd "$1" && bench/ingest.sh 1 > "$out/$3-$2.json") || { echo "run $3 of $2 failed"; exit 1; }
    cp "$1/target/ingest-bench.log" "$out/$3-$2.log"
    cp "$1/target/surefire-reports/io.lifeline.ingest.kafka.IngestThroughputBenchmark-output.txt" "$out/$3-$2.out"
    python3 -c "import json,sys; [print('  %-36s %12.0f' % (f['name'], f['value'])) for f in json.load(open(sys.argv[1]))]" \
        "$out/$3-$2.json"
}
for i in $(seq 1 "$pairs"); do
    if (( i % 2 )); then
        run "$work/previous" previous "$i"; run "$here" current "$i"
    else
        run "$here" current "$i"; run "$work/previous" previous "$i"
    fi
done
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
python3 - "$out" <<'PY'
import glob, json, os, statistics, sys
out = sys.argv[1]
runs = {}
for path in sorted(glob.glob(os.path.join(out, "*.json"))):
    version = os.path.basename(path).split("-", 1)[1].rsplit(".", 1)[0]
    for f in json.load(open(path)):
        runs.setdefault(f["name"], {}).setdefault(version, []).append(f["value"])
print("| figure | previous: median (runs) | current: median (runs) | current / previous |")
print("|---|---:|---:|---:|")
for name, by in runs.items():
    p, c = by.get("previous", []), by.get("current", [])
    if not p or not c:
        continue
    mp, mc = statistics.median(p), statistics.median(c)
    fmt = (lambda v: "%.4f" % v) if name.endswith("ratio") else (lambda v: "{:,.0f}".format(v))
    print("| %s | %s (%s) | %s (%s) | %.2f |" % (name, fmt(mp), ", ".join(map(fmt, p)), fmt(mc), ", ".join(map(fmt, c)),
                                               mc / mp if mp else float("nan")))
with open(os.path.join(out, "summary.json"), "w") as f:
    json.dump(runs, f, indent=2)
PY
