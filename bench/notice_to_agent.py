#!/usr/bin/env python3
"""Time from an interruption notice to the prepare_exit command received by the trainer agent.

Starts the packaged Lifeline as the quick start does (embedded PostgreSQL, demo fleet off, the notice policy on)
in a temporary directory, then for each of N spot nodes: registers the node, a job running on it (submitted,
rendezvous, progress) and the agent's real command channel (lifeline_agent.commands.CommandChannel, long-polling
like a rank 0 does); posts a node.interruption_notice and measures, on this process's monotonic clock, from just
before the POST to the moment the agent's handler has the prepare_exit command. Prints one JSON object.

    python3 bench/notice_to_agent.py [--notices 50] [--warmup 5] [--jar target/quarkus-app/quarkus-run.jar]

Needs the packaged application (./mvnw -DskipTests package) and Python 3.9+; nothing else.
"""
import argparse
import json
import os
import shutil
import statistics
import sys
import tempfile
import threading
import time
from datetime import datetime, timedelta, timezone

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "clients", "python"))
sys.path.insert(0, HERE)

from lifeline_agent.commands import CommandChannel  # noqa: E402
from lifeline_agent.transport import Http  # noqa: E402
from lifeline_process import Lifeline, rfc3339  # noqa: E402


def event(eid, etype, subject, data, source="bench/notice-to-agent", when=None):
    return {"specversion": "1.0", "id": eid, "source": source, "type": etype, "subject": subject,
            "time": rfc3339(when or datetime.now(timezone.utc)), "data": data}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--notices", type=int, default=50)
    ap.add_argument("--warmup", type=int, default=5)
    ap.add_argument("--jar", default=os.path.join(HERE, "..", "target", "quarkus-app", "quarkus-run.jar"))
    args = ap.parse_args()
    workdir = tempfile.mkdtemp(prefix="lifeline-bench-")
    app = Lifeline(args.jar, workdir)
    http = Http(app.url, lambda: app.token, timeout=10.0)
    latencies = []
    try:
        for i in range(args.warmup + args.notices):
            node, job = "bench-n%03d" % i, "bench/job-%03d" % i
            now = datetime.now(timezone.utc) - timedelta(seconds=30)
            app.post("/api/v1/events", [
                event("reg-" + node, "node.registered", node, {"pool": "spot-bench", "capacityType": "spot",
                                                               "gpuCount": 8}, when=now),
                event("ready-" + node, "node.ready", node, {}, when=now),
                event("sub-" + job, "job.submitted", job, {"namespace": "bench", "elastic": {
                    "minNodes": 1, "maxNodes": 2, "procsPerNode": 8, "maxRestarts": 10}, "gpusPerNode": 8},
                      when=now),
                event("rdzv-" + job, "trainer.rendezvous", job, {"round": 0, "worldSize": 8, "participants": [
                    {"node": node, "firstRank": 0, "rankCount": 8}]}, when=now + timedelta(seconds=5)),
                event("prog-" + job, "trainer.progress", job, {"step": 100},
                      when=now + timedelta(seconds=20)),
            ])
            got = threading.Event()
            seen = {}

            def handler(cmd, seen=seen, got=got, channel_box=[]):
                if cmd.kind == "prepare_exit" and "t" not in seen:
                    seen["t"] = time.monotonic()
                    seen["node"] = cmd.get("node")
                    got.set()

            name = job.split("/", 1)[1]
            channel = CommandChannel(http, "bench", name, handler, wait=30).start()
            time.sleep(0.3)  # the long poll is parked on the server
            deadline = rfc3339(datetime.now(timezone.utc) + timedelta(seconds=120))
            t0 = time.monotonic()
            app.post("/api/v1/events", event("notice-" + node, "node.interruption_notice", node,
                                              {"kind": "spot_reclaim", "provider": "aws", "deadline": deadline}),
                     content_type="application/cloudevents+json")
            ok = got.wait(10)
            channel.stop()
            if not ok:
                raise SystemExit("no prepare_exit for %s within 10 s; see %s" % (job, app.log.name))
            if seen.get("node") != node:
                raise SystemExit("prepare_exit for %s names node %r, not %s" % (job, seen.get("node"), node))
            if i >= args.warmup:
                latencies.append((seen["t"] - t0) * 1000.0)
    finally:
        app.stop()
        shutil.rmtree(workdir, ignore_errors=True)
    latencies.sort()

    def pct(p):
        return latencies[min(len(latencies) - 1, int(round(p / 100.0 * (len(latencies) - 1))))]

    print(json.dumps({"notices": len(latencies), "p50_ms": round(pct(50), 1), "p99_ms": round(pct(99), 1),
                      "max_ms": round(latencies[-1], 1), "mean_ms": round(statistics.mean(latencies), 1),
                      "runs_ms": [round(x, 1) for x in latencies], "load_average": os.getloadavg()[0]}))


if __name__ == "__main__":
    main()
