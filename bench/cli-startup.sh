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

cli=cli/target
jar=$cli/lifeline-cli.jar
cp="$jar"
for l in picocli jackson-core jackson-databind jackson-annotations jackson-dataformat-yaml snakeyaml; do cp="$cp:$cli/lib/$l.jar"; done
java="${JAVA_HOME:+$JAVA_HOME/bin/}java"
main=(-cp "$cp" io.lifeline.cli.Main get jobs)

median() { tr ' ' '\n' | sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }

fast=(-XX:TieredStopAtLevel=1 -XX:+UseSerialGC -XX:-UsePerfData -Xss512k)
cds=(-XX:SharedArchiveFile="$cli/lifelinectl.jsa" -Xlog:cds=off -Xlog:cds+dynamic=off)
server_cp="$jar:$cli/lib/picocli.jar:target/quarkus-app/lib/main/*"
labels=(
  "curl (the request alone)"
  "java -version (JVM start, default CDS)"
  "java, no options"
  "  + -XX:TieredStopAtLevel=1"
  "  + -XX:+UseSerialGC -XX:-UsePerfData -Xss512k"
  "  + AppCDS archive (= the launcher's java command)"
  "  AppCDS alone (no other option)"
  "  launcher's options, every command given to picocli"
  "  launcher's options, the server's class path, no AppCDS"
  "./lifelinectl get jobs (the launcher: bash + the above)"
)
variant() {
  case $1 in
    0) curl -s -o /dev/null -H "Authorization: Bearer $token" "$url/api/v1/jobs?limit=1000&offset=0" ;;
    1) "$java" -version ;;
    2) "$java" "${main[@]}" ;;
    3) "$java" -XX:TieredStopAtLevel=1 "${main[@]}" ;;
    4) "$java" "${fast[@]}" "${main[@]}" ;;
    5) "$java" "${fast[@]}" "${cds[@]}" "${main[@]}" ;;
    6) "$java" "${cds[@]}" "${main[@]}" ;;
    7) LIFELINECTL_ALL_COMMANDS=1 "$java" "${fast[@]}" "${cds[@]}" "${main[@]}" ;;
    8) "$java" "${fast[@]}" -cp "$server_cp" io.lifeline.cli.Main get jobs ;;
    9) ./lifelinectl get jobs ;;
  esac
}

load_before=$(cut -d' ' -f1-3 /proc/loadavg)
echo "lifelinectl start-up, $runs runs of each variant taken in turn, $(nproc) cores, load average before: $load_before"
declare -a all
for v in "${!labels[@]}"; do variant "$v" >/dev/null 2>&1 || true; all[$v]=""; done   # one unmeasured run each
for _ in $(seq "$runs"); do
  for v in "${!labels[@]}"; do
    s=$(date +%s%N); variant "$v" >/dev/null 2>&1 || true; e=$(date +%s%N)
    all[$v]="${all[$v]} $(( (e - s) / 1000000 ))"
  done
done
for v in "${!labels[@]}"; do
  printf '%-58s median %5s ms   runs:%s\n' "${labels[$v]}" "$(echo "${all[$v]# }" | median)" "${all[$v]}"
done
launcher_runs="${all[9]# }"
launcher_median=$(echo "$launcher_runs" | median)
load_after=$(cut -d' ' -f1-3 /proc/loadavg)
echo "load average after: $load_after"

if [ -n "$json" ]; then
  python3 - "$json" "$launcher_runs" "$launcher_median" "$load_before" "$load_after" "$runs" <<'EOF'
import json, os, sys, datetime
path, runs, median, before, after, n = sys.argv[1:]
entries = json.load(open(path)) if os.path.exists(path) else []
entries = [e for e in entries if e.get("name") not in ("lifelinectl_get_jobs_startup_ms",
                                                     "lifelinectl get jobs start-up to output")]
m = float(median)
entries.append({
    "name": "lifelinectl_get_jobs_startup_ms",
    "value": m, "unit": "ms", "runs": [int(x) for x in runs.split()], "median": m,
    "target": "< 500", "met": m < 500,
    "command": "bench/cli-startup.sh " + n + " --json bench/results.json",
    "measured_at": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
    "load_average": float(before.split()[0]),
    "note": "load average (1, 5, 15 min) before: " + before + ", after: " + after
             + "; 2 cores shared with other builds; time to exit, an upper bound on time to first output",
})
with open(path, "w") as f:
    json.dump(entries, f, indent=2, ensure_ascii=False)
    f.write("\n")
print("wrote", path)
EOF
fi
