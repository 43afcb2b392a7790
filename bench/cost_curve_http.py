#!/usr/bin/env python3
"""The HTTP cost curve's measuring step, run by bench/cost-curve-http.sh (which builds and passes the class path).

For each size: a fresh working directory, the packaged application started in it as the quick start starts it
(embedded PostgreSQL in .lifeline/), the fleet sent and read by io.lifeline.bench.FleetHttpLoad in its own JVM, then
the application stopped with SIGTERM (it writes a model checkpoint, as a stopping replica does) and started again
RESTARTS times on that database, each timed from the JVM's launch to /q/health/ready answering 200. Appends one JSON
line per size to the lines file. Standard library only.

    python3 bench/cost_curve_http.py CLASSPATH LINES_FILE GPUS...
Environment: APP_HEAP (default 6g), LOAD_HEAP (default by size), MEASURE, REQUESTS, READERS, FILL, CATCHUP, WARM,
RESTARTS,
KEEP_DATA=1 to keep target/cost-curve-http/<gpus>.
"""
import json
import os
import shutil
import statistics
import subprocess
import sys
import time
from datetime import datetime, timezone

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from lifeline_process import Lifeline  # noqa: E402

ROOT = os.path.dirname(HERE)
JAR = os.path.join(ROOT, "target", "quarkus-app", "quarkus-run.jar")


def load_average():
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])


def load_heap(gpus):
    # The simulator's fleet lives in the load generator's heap: about 12 GiB held sim and model at 256k in the
    # in-JVM curve, the simulator most of it.
    return os.environ.get("LOAD_HEAP") or ("8g" if gpus > 65536 else "4g" if gpus > 16384 else "2g")


def app_properties():
    # The quick start passes no heap size: on this benchmark's 24 GiB machine the JVM's default is a quarter of it.
    return ["-Xmx" + os.environ.get("APP_HEAP", "6g"), "-Dlifeline.policies.mode.notice-checkpoint-drain=off"]


def java():
    j = os.path.join(os.environ.get("JAVA_HOME", "/usr"), "bin", "java")
    return j if os.path.exists(j) else "java"


def measure(classpath, gpus):
    work = os.path.join(ROOT, "target", "cost-curve-http", str(gpus))
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    point = {"load_average_start": load_average()}
    app = Lifeline(JAR, work, *app_properties())
    point["first_start_seconds"] = round(app.ready_seconds, 2)
    try:
        args = [java(), "-Xmx" + load_heap(gpus), "-XX:+UseParallelGC", "-cp", classpath,
                "io.lifeline.bench.FleetHttpLoad", "url=" + app.url, "token=" + app.token, "gpus=%d" % gpus]
        for key, env in (("fill", "FILL"), ("catchup", "CATCHUP"), ("warm", "WARM"), ("measure", "MEASURE"), ("requests", "REQUESTS"),
                         ("readers", "READERS")):
            if os.environ.get(env):
                args.append("%s=%s" % (key, os.environ[env]))
        with open(os.path.join(work, "load.log"), "w") as err:
            out = subprocess.run(args, stdout=subprocess.PIPE, stderr=err, text=True)
        lines = [l for l in out.stdout.splitlines() if l.startswith("{")]
        if not lines:
            raise SystemExit("the load generator printed no result (exit %d); see %s/load.log"
                             % (out.returncode, work))
        point.update(json.loads(lines[-1]))
        point["load_exit"] = out.returncode
    finally:
        app.stop()
    starts = []
    for _ in range(int(os.environ.get("RESTARTS", "3"))):
        app = Lifeline(JAR, work, *app_properties(), ready_within=900)
        try:
            starts.append(round(app.ready_seconds, 2))
            point["restarted_gpus"] = app.get("/api/v1/gpus?limit=1").get("total")
        finally:
            app.stop()
    point["startup_seconds_runs"] = starts
    point["startup_seconds"] = statistics.median(starts) if starts else None
    point["load_average_end"] = load_average()
    point["measured_at"] = datetime.now(timezone.utc).isoformat(timespec="seconds").replace("+00:00", "Z")
    if not os.environ.get("KEEP_DATA"):
        shutil.rmtree(work, ignore_errors=True)
    return point


def main():
    classpath, lines = sys.argv[1], sys.argv[2]
    for gpus in [int(x) for x in sys.argv[3:]]:
        point = measure(classpath, gpus)
        print("[cost-http] " + json.dumps(point), flush=True)
        with open(lines, "a") as f:
            f.write(json.dumps(point) + "\n")


if __name__ == "__main__":
    main()
