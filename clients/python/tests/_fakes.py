"""Test doubles: a small fake Lifeline over real HTTP (http.server on 127.0.0.1), a fake clock, an in-memory store."""

from __future__ import annotations

import json
import os
import socket
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Callable, Union

#: A scripted answer: (status, headers, body), "hang" or "close".
Answer = Union[str, "tuple[int, dict[str, str], Any]"]

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
# Quiet by default (the agent's warnings go to stderr); assertLogs lowers the level where a test reads them.
import logging  # noqa: E402
logging.getLogger("lifeline_agent").setLevel(logging.ERROR)


class _QuietServer(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request: Any, client_address: Any) -> None:
        if isinstance(sys.exc_info()[1], (BrokenPipeError, ConnectionResetError)):
            return      # a client that went away mid-answer (a killed child process)
        ThreadingHTTPServer.handle_error(self, request, client_address)


class Recorded:
    def __init__(self, method: str, path: str, query: str, headers: dict[str, str], body: bytes) -> None:
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
        self.accepted = False

    def json(self) -> Any:
        return json.loads(self.body.decode("utf-8"))

    def lines(self) -> list[Any]:
        return [json.loads(l) for l in self.body.decode("utf-8").splitlines() if l.strip()]


class FakeLifeline:
    """Answers like Lifeline: events (accepting all, or as scripted), agent commands (a queue), acks.

    ``script``: a list of answers used one per POST to /api/v1/events before the default 200; each is
    ``(status, headers, body)`` or ``"hang"`` (no answer for ``hang_seconds``) or ``"close"`` (drop the connection).
    """

    def __init__(self, token: str = "llt_test_token", port: int = 0) -> None:
        self.token = token
        self.requests: list[Recorded] = []
        self.script: list[Answer] = []
        self.elastic_script: list[Answer] = []
        self.commands: list[dict[str, Any]] = []  # command CloudEvents waiting for the next poll
        self.acks: list[tuple[str, str | None, str | None]] = []  # (command id, status, detail)
        self.hang_seconds = 5.0
        self.remove_on_ack = True   # like Lifeline: the first ack takes the command off the queue
        self.redeliver_after = 30.0  # like Lifeline: a delivered, unacknowledged command comes again after this
        self._delivered: dict[str, float] = {}
        self.reject_ids: set[str] = set()  # event ids answered as rejected
        self.claims: dict[str, str] = {}  # like Lifeline: job -> the agent key that claimed its commands
        self._lock = threading.RLock()
        self._cond = threading.Condition(self._lock)
        fake = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *a: Any) -> None:
                pass

            def _body(self) -> bytes:
                n = int(self.headers.get("Content-Length") or 0)
                return self.rfile.read(n) if n else b""

            def _send(self, status: int, doc: Any = None, headers: dict[str, str] | None = None) -> None:
                data = b"" if doc is None else json.dumps(doc).encode("utf-8")
                self.send_response(status)
                for k, v in (headers or {}).items():
                    self.send_header(k, v)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def _record(self, body: bytes) -> Recorded:
                path, _, query = self.path.partition("?")
                rec = Recorded(self.command, path, query, dict(self.headers), body)
                with fake._cond:
                    fake.requests.append(rec)
                    fake._cond.notify_all()
                return rec

            def _auth(self) -> bool:
                if self.headers.get("Authorization") != "Bearer " + fake.token:
                    self._send(401, {"type": "/problems/unauthorized", "status": 401, "detail": "bad token"})
                    return False
                return True

            def _scripted(self, script: list[Answer]) -> bool:
                with fake._lock:
                    step = script.pop(0) if script else None
                if step is None:
                    return False
                if step == "hang":
                    time.sleep(fake.hang_seconds)
                    self.close_connection = True
                    return True
                if step == "close":
                    self.close_connection = True
                    try:
                        self.connection.shutdown(socket.SHUT_RDWR)
                    except OSError:
                        pass
                    return True
                assert not isinstance(step, str), step
                status, headers, doc = step
                self._send(status, doc, headers)
                return True

            def do_POST(self) -> None:
                body = self._body()
                rec = self._record(body)
                if not self._auth():
                    return
                if rec.path == "/api/v1/events":
                    if self._scripted(fake.script):
                        return
                    events = json.loads(body.decode("utf-8"))
                    errors = [{"index": i, "id": e.get("id"), "reason": "data.step: required"}
                              for i, e in enumerate(events) if e.get("id") in fake.reject_ids]
                    doc: dict[str, Any] = {"accepted": len(events) - len(errors), "duplicates": 0,
                                           "rejected": len(errors)}
                    if errors:
                        doc["errors"] = errors
                    rec.accepted = True
                    self._send(200, doc)
                elif rec.path == "/api/v1/connectors/torchelastic":
                    if self._scripted(fake.elastic_script):
                        return
                    n = len([l for l in body.splitlines() if l.strip()])
                    rec.accepted = True
                    self._send(200, {"accepted": n, "duplicates": 0, "rejected": 0})
                elif rec.path.startswith("/api/v1/agents/") and rec.path.endswith("/ack"):
                    base = rec.path[len("/api/v1/agents/"):-len("/ack")]
                    ns, name, _, cid = base.split("/", 3)
                    if not self._holds(ns + "/" + name):
                        return
                    ack = json.loads(body.decode("utf-8"))
                    with fake._cond:
                        fake.acks.append((cid, ack.get("status"), ack.get("detail")))
                        if fake.remove_on_ack:
                            fake.commands = [c for c in fake.commands if c["id"] != cid]
                        fake._cond.notify_all()
                    self._send(202, {"commandId": cid, "job": ns + "/" + name, "status": ack.get("status")})
                else:
                    self._send(404, {"status": 404, "detail": "no such path"})

            def _key(self) -> str | None:
                key: str | None = self.headers.get("Lifeline-Agent-Key")
                if not key:
                    self._send(400, {"status": 400, "detail": "Lifeline-Agent-Key: required"})
                return key

            def _holds(self, job: str) -> bool:
                key = self._key()
                if not key:
                    return False
                if fake.claims.get(job) != key:
                    self._send(409, {"type": "/problems/claimed-by-another-agent", "status": 409,
                                     "detail": "the commands of %s are claimed by another agent" % job})
                    return False
                return True

            def do_DELETE(self) -> None:
                rec = self._record(b"")
                if not self._auth():
                    return
                if rec.path.startswith("/api/v1/agents/") and rec.path.endswith("/commands/claim"):
                    ns, name = rec.path[len("/api/v1/agents/"):].split("/")[:2]
                    key = self.headers.get("Lifeline-Agent-Key")
                    with fake._cond:
                        released = key is not None and fake.claims.get(ns + "/" + name) == key
                        if released:
                            del fake.claims[ns + "/" + name]
                    self._send(200, {"job": ns + "/" + name, "released": released})
                else:
                    self._send(404, {"status": 404})

            def do_GET(self) -> None:
                rec = self._record(b"")
                if not self._auth():
                    return
                if rec.path.startswith("/api/v1/agents/") and rec.path.endswith("/commands"):
                    ns, name = rec.path[len("/api/v1/agents/"):].split("/")[:2]
                    key = self._key()
                    if not key:
                        return
                    with fake._cond:
                        held = fake.claims.setdefault(ns + "/" + name, key)
                    if held != key:
                        self._send(409, {"type": "/problems/claimed-by-another-agent", "status": 409,
                                         "detail": "the commands of %s/%s are claimed by another agent" % (ns, name)},
                                   {"Retry-After": "1"})
                        return
                    wait = 0.0
                    for part in rec.query.split("&"):
                        if part.startswith("wait="):
                            wait = float(part[5:])
                    end = time.time() + min(wait, 2.0)
                    with fake._cond:
                        while True:
                            now = time.time()
                            out = [c for c in fake.commands
                                   if now - fake._delivered.get(c["id"], -1e9) >= fake.redeliver_after]
                            if out or now >= end:
                                break
                            fake._cond.wait(0.05)
                        for c in out:
                            fake._delivered[c["id"]] = now
                    self._send(200, out)
                else:
                    self._send(404, {"status": 404})

        self.server = _QuietServer(("127.0.0.1", port), Handler)
        self.server.daemon_threads = True
        self.port = self.server.server_address[1]
        self.url = "http://127.0.0.1:%d" % self.port
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()

    # ------------------------------------------------------------------ helpers
    def events(self, type_: str | None = None) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        with self._lock:
            reqs = list(self.requests)
        for r in reqs:
            if r.path == "/api/v1/events" and r.method == "POST" and r.accepted:
                try:
                    for e in r.json():
                        if type_ is None or e.get("type") == type_:
                            out.append(e)
                except ValueError:
                    pass
        return out

    def wait_for(self, predicate: Callable[[], Any], timeout: float = 10.0) -> Any:
        """The predicate's value once it is true (its last value when ``timeout`` passes first)."""
        end = time.time() + timeout
        with self._cond:
            while True:
                v = predicate()
                if v:
                    return v
                left = end - time.time()
                if left <= 0:
                    return v
                self._cond.wait(min(left, 0.05))

    def add_command(self, id_: str, kind: str, **data: Any) -> None:
        with self._cond:
            self.commands.append({"specversion": "1.0", "id": id_, "source": "lifeline",
                                  "type": "lifeline.command." + kind, "subject": "ml/test",
                                  "time": "2026-03-01T10:00:00Z", "data": data})
            self._cond.notify_all()

    def remove_command(self, id_: str) -> None:
        with self._cond:
            self.commands = [c for c in self.commands if c["id"] != id_]


def free_port() -> int:
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    p = int(s.getsockname()[1])
    s.close()
    return p


class Collect:
    """A sender that keeps what it is given (the torchelastic forwarder's lines)."""

    def __init__(self) -> None:
        self.lines: list[str] = []

    def add(self, line: str, lifecycle: bool = True) -> None:
        self.lines.append(line)


def parsed(line: str | None) -> Any:
    """A forwarded line as JSON (the test fails when the line was skipped)."""
    assert line is not None, "the line was not forwarded"
    return json.loads(line)


class FakeClock:
    def __init__(self, t: float = 1000.0) -> None:
        self.t = t
        self.sleeps: list[float] = []

    def __call__(self) -> float:
        return self.t

    def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        self.t += seconds


class MemoryStore:
    """The part of torch.distributed.TCPStore the coordinator uses, in memory and thread-safe."""

    def __init__(self) -> None:
        self.data: dict[str, bytes] = {}
        self.lock = threading.Lock()

    def add(self, key: str, n: int) -> int:
        with self.lock:
            v = int(self.data.get(key, b"0")) + n
            self.data[key] = str(v).encode()
            return v

    def set(self, key: str, value: str | bytes) -> None:
        with self.lock:
            self.data[key] = value.encode() if isinstance(value, str) else value

    def get(self, key: str) -> bytes:
        with self.lock:
            return self.data[key]

    def check(self, keys: list[str]) -> bool:
        with self.lock:
            return all(k in self.data for k in keys)


def base_env(url: str, **extra: object) -> dict[str, str]:
    env = {"LIFELINE_URL": url, "LIFELINE_TOKEN": "llt_test_token", "LIFELINE_JOB": "ml/test",
           "LIFELINE_NODE": "node-a", "LIFELINE_FLUSH_INTERVAL": "0.05", "LIFELINE_COMMAND_WAIT": "1",
           "LIFELINE_PROGRESS_INTERVAL": "0.2", "TORCHELASTIC_RUN_ID": "run1", "LIFELINE_SIGNALS": ""}
    env.update({k: str(v) for k, v in extra.items()})
    return env


def optional_torch() -> Any:
    """torch, or None in a standard-library-only run; the suite's run (LIFELINE_REQUIRE_TORCH=1) fails without it."""
    try:
        import torch
        return torch
    except ImportError:
        if os.environ.get("LIFELINE_REQUIRE_TORCH"):
            raise ImportError("torch is not installed in this Python: `bash .ci/python-env .venv` makes the "
                              "environment (./mvnw verify runs it)")
        return None
