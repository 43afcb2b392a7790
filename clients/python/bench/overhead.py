#!/usr/bin/env python3
"""What the agent costs the training loop, printed as JSON.

* ``hot_path_us``: the median (over ``--runs`` runs of ``--calls`` calls) per-call time of ``agent.step()`` and the
  other calls a loop makes per step, in microseconds: the no-op agent, an enabled agent of a one-rank job (its
  threads sending to a local HTTP server that accepts everything), an enabled rank of a two-rank job (its
  coordination thread polling an in-memory store), and ``BatchSender.add`` of one event.
* ``loop``: a loop of ``--steps`` steps of ``--step-ms`` milliseconds each (a sleep, like a GPU step), without and
  with the enabled agent calling ``step()`` every step (progress every second), wall time and overhead in percent.

Standard library only: ``python3 bench/overhead.py [--runs 7 --calls 200000 --steps 200 --step-ms 50]``.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Callable

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from lifeline_agent.agent import Agent, NoopAgent  # noqa: E402
from lifeline_agent.config import Config  # noqa: E402
from lifeline_agent.sender import TELEMETRY, BatchSender, encode_cloudevents  # noqa: E402
from lifeline_agent.transport import Http  # noqa: E402


class _Accept(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *a: Any) -> None:
        pass

    def _answer(self, status: int, body: Any) -> None:
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_POST(self) -> None:
        n = int(self.headers.get("Content-Length") or 0)
        self.rfile.read(n)
        self._answer(200, {"accepted": 1, "duplicates": 0, "rejected": 0})

    def do_GET(self) -> None:
        time.sleep(0.5)
        self._answer(200, [])


class _Store:
    def __init__(self) -> None:
        self.d: dict[str, bytes] = {}
        self.lock = threading.Lock()

    def add(self, k: str, n: int) -> int:
        with self.lock:
            v = int(self.d.get(k, b"0")) + n
            self.d[k] = str(v).encode()
            return v

    def set(self, k: str, v: str | bytes) -> None:
        with self.lock:
            self.d[k] = v.encode() if isinstance(v, str) else v

    def get(self, k: str) -> bytes:
        with self.lock:
            return self.d[k]

    def check(self, ks: list[str]) -> bool:
        with self.lock:
            return all(k in self.d for k in ks)


def median_us(fn: Callable[[int], None], calls: int, runs: int) -> float:
    per = []
    for _ in range(runs):
        t0 = time.perf_counter()
        fn(calls)
        per.append((time.perf_counter() - t0) / calls * 1e6)
    return round(statistics.median(per), 3)


def main(argv: list[str] | None = None) -> dict[str, Any]:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--runs", type=int, default=7)
    p.add_argument("--calls", type=int, default=200000)
    p.add_argument("--steps", type=int, default=200)
    p.add_argument("--step-ms", type=float, default=50.0)
    a = p.parse_args(argv)

    server = ThreadingHTTPServer(("127.0.0.1", 0), _Accept)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = "http://127.0.0.1:%d" % server.server_address[1]
    base = {"LIFELINE_URL": url, "LIFELINE_TOKEN": "llt_bench", "LIFELINE_JOB": "bench/overhead",
            "LIFELINE_SIGNALS": "", "LIFELINE_EXCEPTION_HOOK": "0", "LIFELINE_PROGRESS_INTERVAL": "1",
            "TORCHELASTIC_RUN_ID": "bench"}

    NoopAgent._warned = True
    noop = NoopAgent(Config.from_env({}))
    one = Agent(Config.from_env(dict(base)), install_signals=False)
    two = Agent(Config.from_env(dict(base, RANK="1", WORLD_SIZE="2", MASTER_ADDR="127.0.0.1", MASTER_PORT="1",
                                     LIFELINE_COMMANDS="0")), install_signals=False, store=_Store())
    two.step(0)     # agrees the key generation once (no process group here: falls back to the store address)

    def steps(agent: Agent | NoopAgent) -> Callable[[int], None]:
        def run(n: int) -> None:
            s = agent.step
            for i in range(n):
                s(i, 32)
        return run

    def queries(n: int) -> None:
        for _ in range(n):
            one.checkpoint_requested()
            one.should_exit()

    event = one.events.progress("bench", 1, 1.0)
    queue_only = BatchSender(Http(url, None), "/api/v1/events", "application/cloudevents-batch+json", encode_cloudevents,
                             capacity=10 ** 7)   # not started: measures the append alone

    def adds(n: int) -> None:
        add = queue_only.add
        for _ in range(n):
            add(event, TELEMETRY)

    hot = {
        "noop_agent_step": median_us(steps(noop), a.calls, a.runs),
        "agent_step_world1": median_us(steps(one), a.calls, a.runs),
        "agent_step_world2_follower": median_us(steps(two), a.calls, a.runs),
        "checkpoint_requested_plus_should_exit": median_us(queries, a.calls // 10, a.runs),
        "sender_add_one_event": median_us(adds, a.calls // 10, a.runs),
    }

    def loop(agent: Agent | None) -> float:
        dt = a.step_ms / 1000.0
        t0 = time.perf_counter()
        for i in range(1, a.steps + 1):
            time.sleep(dt)
            if agent is not None:
                agent.step(i, samples=32)
        return time.perf_counter() - t0

    fresh = Agent(Config.from_env(dict(base, TORCHELASTIC_RUN_ID="bench-loop")), install_signals=False)
    without = [loop(None) for _ in range(3)]
    with_agent = [loop(fresh) for _ in range(3)]
    w0, w1 = statistics.median(without), statistics.median(with_agent)
    fresh.flush(5)
    result = {
        "python": sys.version.split()[0],
        "runs": a.runs,
        "calls_per_run": a.calls,
        "hot_path_us": hot,
        "loop": {
            "steps": a.steps,
            "step_ms": a.step_ms,
            "without_agent_s": round(w0, 4),
            "with_agent_s": round(w1, 4),
            "overhead_percent": round((w1 - w0) / w0 * 100.0, 3),
            "progress_events_sent": fresh.sender.stats()["delivered"],
        },
    }
    for ag in (one, two, fresh):
        ag.close(1)
    server.shutdown()
    print(json.dumps(result, indent=2))
    return result


if __name__ == "__main__":
    main()
