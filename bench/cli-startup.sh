#!/usr/bin/env bash
# Start-up of `lifelinectl get jobs` to its (complete) output, against a running Lifeline: the JVM alone, the CLI with
# no JVM options, each option the launcher adds, and the launcher itself; the same request by curl as the floor the
# server sets. Prints one line per variant (every run in ms, the median) and the load average, and with --json FILE
# also merges the launcher's figure into FILE (bench/results.json).
#
#   ./lifeline &                                  # the demo, or any Lifeline: set LIFELINE_URL / LIFELINE_TOKEN
#   bench/cli-startup.sh [RUNS] [--json bench/results.json]
set -euo pipefail
cd "$(dirname "$0")/.."
runs=15
json=
while [ $# -gt 0 ]; do
  case "$1" in
    --json) json=$2; shift 2 ;;
    *) runs=$1; shift ;;
  esac
done
url=${LIFELINE_URL:-http://localhost:8080}
token=${LIFELINE_TOKEN:-$(cat .lifeline/admin-token 2>/dev/null || true)}
export LIFELINE_URL=$url LIFELINE_TOKEN=$token LIFELINECONFIG=/nonexistent/lifelinectl-bench.yaml
./lifelinectl get jobs -o name >/dev/null          # builds if needed, records the class-data archive once

cli=target/cli
jar=$(compgen -G "$cli/lifeline-*-cli.jar" | head -n 1)
cp="$jar"
for l in picocli jackson-core jackson-databind jackson-annotations jackson-dataformat-yaml snakeyaml; do cp="$cp:$cli/lib/$l.jar"; done
java="${JAVA_HOME:+$JAVA_HOME/bin/}java"
main=(-cp "$cp" io.lifeline.cli.Main get jobs)

median() { tr ' ' '\n' | sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }
measure() {  # label command...: runs it $runs times (after one unmeasured run), prints and remembers the figures
  local label=$1; shift
  "$@" >/dev/null 2>&1 || true
  local ts=() s e
  for _ in $(seq "$runs"); do
    s=$(date +%s%N); "$@" >/dev/null 2>&1 || true; e=$(date +%s%N)
    ts+=($(( (e - s) / 1000000 )))
  done
  last_runs="${ts[*]}"
  last_median=$(echo "$last_runs" | median)
  printf '%-58s median %5s ms   runs: %s\n' "$label" "$last_median" "$last_runs"
}

load_before=$(cut -d' ' -f1-3 /proc/loadavg)
echo "lifelinectl start-up, $runs runs each, $(nproc) cores, load average before: $load_before"
measure "curl (the request alone)" curl -s -o /dev/null -H "Authorization: Bearer $token" "$url/api/v1/jobs?limit=1000"
measure "java -version (JVM start, default CDS)" "$java" -version
measure "java, no options" "$java" "${main[@]}"
measure "  + -XX:TieredStopAtLevel=1" "$java" -XX:TieredStopAtLevel=1 "${main[@]}"
measure "  + -XX:+UseSerialGC -XX:-UsePerfData -Xss512k" "$java" -XX:TieredStopAtLevel=1 -XX:+UseSerialGC \
  -XX:-UsePerfData -Xss512k "${main[@]}"
measure "  + AppCDS archive (what the launcher runs)" "$java" -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -XX:-UsePerfData \
  -Xss512k -XX:SharedArchiveFile="$cli/lifelinectl.jsa" -Xlog:cds=off -Xlog:cds+dynamic=off "${main[@]}"
measure "  AppCDS, but no options otherwise" "$java" -XX:SharedArchiveFile="$cli/lifelinectl.jsa" -Xlog:cds=off \
  -Xlog:cds+dynamic=off "${main[@]}"
measure "  every command given to picocli (--help, AppCDS)" "$java" -XX:TieredStopAtLevel=1 -XX:+UseSerialGC \
  -XX:-UsePerfData -Xss512k -XX:SharedArchiveFile="$cli/lifelinectl.jsa" -Xlog:cds=off -Xlog:cds+dynamic=off \
  -cp "$cp" io.lifeline.cli.Main --help
measure "./lifelinectl get jobs (the launcher: bash + the above)" ./lifelinectl get jobs
launcher_runs=$last_runs
launcher_median=$last_median
load_after=$(cut -d' ' -f1-3 /proc/loadavg)
echo "load average after: $load_after"

if [ -n "$json" ]; then
  python3 - "$json" "$launcher_runs" "$launcher_median" "$load_before" "$load_after" "$runs" <<'EOF'
import json, os, sys, datetime
path, runs, median, before, after, n = sys.argv[1:]
entries = json.load(open(path)) if os.path.exists(path) else []
entries = [e for e in entries if e.get("name") != "lifelinectl get jobs start-up to output"]
m = float(median)
entries.append({
    "name": "lifelinectl get jobs start-up to output",
    "value": m, "unit": "ms", "runs": [int(x) for x in runs.split()], "median": m,
    "target": 500, "met": m < 500,
    "command": "bench/cli-startup.sh " + n + " --json bench/results.json",
    "measured_at": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
    "load_average": float(before.split()[0]),
    "notes": "load average (1, 5, 15 min) before: " + before + ", after: " + after
             + "; 2 cores shared with other builds; time to exit, an upper bound on time to first output",
})
with open(path, "w") as f:
    json.dump(entries, f, indent=2)
    f.write("\n")
print("wrote", path)
EOF
fi
