#!/usr/bin/env python3
"""Emergency checkpoints on SIGTERM: how many of N drills end with a save that Lifeline shows as verified.

Starts the packaged Lifeline (as bench/notice_to_agent.py does), then N times: one real torchrun elastic agent runs
examples/elastic_train.py through the trainer agent's wrapper (no periodic checkpoints), trains a few steps, and
gets SIGTERM as a scheduler's preemption sends it; the drill succeeds when the script logged an emergency save
(reason=signal) and Lifeline's /api/v1/jobs/<job>/checkpoints shows that checkpoint verified. Also times SIGTERM to
the agent's exit. Prints one JSON object.

    python3 bench/sigterm_drills.py [--drills 20] [--python .venv/bin/python]

Needs the packaged application (./mvnw -DskipTests package) and a Python with torch (bash .ci/python-env .venv).
"""
import argparse
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.normpath(os.path.join(HERE, ".."))
sys.path.insert(0, HERE)

from lifeline_process import Lifeline  # noqa: E402

SAVED = re.compile(r"LIFELINE_EXAMPLE saved step=(\d+) checkpoint=(\S+) reason=signal")
STEP = re.compile(r"LIFELINE_EXAMPLE step=(\d+)")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def drill(app, python, index, workdir, steps_before):
    job = "drills/sigterm-%02d" % index
    env = dict(os.environ, PYTHONPATH=os.path.join(REPO, "clients", "python"), PYTHONUNBUFFERED="1",
               LIFELINE_URL=app.url, LIFELINE_TOKEN=app.token, LIFELINE_JOB=job, LIFELINE_NODE="drill-node",
               LIFELINE_PROGRESS_INTERVAL="1", OMP_NUM_THREADS="1")
    ckdir = os.path.join(workdir, "ck-%02d" % index)
    cmd = [python, "-u", "-m", "lifeline_agent.run", "--nnodes=1", "--nproc-per-node=1", "--rdzv-backend=c10d",
           "--rdzv-endpoint=127.0.0.1:%d" % free_port(), "--rdzv-id=drill-%02d" % index, "--max-restarts=0",
           "--monitor-interval=0.5", os.path.join(REPO, "examples", "elastic_train.py"), "--steps", "100000",
           "--step-time", "0.05", "--checkpoint-every", "0", "--checkpoint-dir", ckdir]
    p = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    lines = []
    reached = threading.Event()

    def read():
        for line in p.stdout:
            lines.append(line)
            m = STEP.search(line)
            if m and int(m.group(1)) >= steps_before:
                reached.set()

    t = threading.Thread(target=read, daemon=True)
    t.start()
    if not reached.wait(120):
        p.kill()
        return {"ok": False, "why": "did not train", "tail": "".join(lines[-20:])}
    sent = time.monotonic()
    p.send_signal(signal.SIGTERM)
    try:
        p.wait(60)
    except subprocess.TimeoutExpired:
        p.kill()
        return {"ok": False, "why": "did not exit within 60 s of SIGTERM"}
    exit_s = time.monotonic() - sent
    t.join(5)
    saved = [SAVED.search(x) for x in lines]
    saved = [m for m in saved if m]
    if not saved:
        return {"ok": False, "why": "no emergency save in the log", "exit_s": exit_s, "tail": "".join(lines[-20:])}
    cid = saved[-1].group(2)
    deadline = time.time() + 30
    status = None
    while time.time() < deadline:
        hist = app.get("/api/v1/jobs/%s/checkpoints" % job) or {}
        for c in hist.get("checkpoints", []):
            if c.get("id") == cid:
                # "verified"; a server of an earlier release answers "VERIFIED"
                status = (c.get("status") or "").lower() or None
        if status == "verified":
            break
        time.sleep(0.5)
    return {"ok": status == "verified", "why": None if status == "verified" else "Lifeline shows %s" % status,
            "checkpoint": cid, "exit_s": round(exit_s, 2)}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--drills", type=int, default=20)
    ap.add_argument("--steps-before", type=int, default=15)
    ap.add_argument("--python", default=os.path.join(REPO, ".venv", "bin", "python"))
    ap.add_argument("--jar", default=os.path.join(REPO, "target", "quarkus-app", "quarkus-run.jar"))
    args = ap.parse_args()
    workdir = tempfile.mkdtemp(prefix="lifeline-drills-")
    app = Lifeline(args.jar, workdir)
    results = []
    try:
        for i in range(args.drills):
            r = drill(app, args.python, i, workdir, args.steps_before)
            results.append(r)
            print("drill %d: %s" % (i, "ok" if r["ok"] else r["why"]), file=sys.stderr)
    finally:
        app.stop()
        shutil.rmtree(workdir, ignore_errors=True)
    exits = sorted(r["exit_s"] for r in results if "exit_s" in r)
    print(json.dumps({"drills": len(results), "verified": sum(1 for r in results if r["ok"]),
                      "exit_after_sigterm_s_median": exits[len(exits) // 2] if exits else None,
                      "failures": [r for r in results if not r["ok"]], "load_average": os.getloadavg()[0]}))


if __name__ == "__main__":
    main()
