"""Commands from Lifeline: one long-polling thread (global rank 0 only), dedupe by id, acknowledgements.

``GET /api/v1/agents/{ns}/{name}/commands?wait=N`` answers a JSON array of command CloudEvents (type
``lifeline.command.<kind>``, data values all strings). A command is delivered again until it is acknowledged, so
ids are remembered (a bounded set) and a redelivered one is not acted on twice; its last acknowledgement is sent
again instead, since the first one was evidently lost. Acknowledgements (``accepted``/``rejected`` at once,
``done``/``failed`` later) go through their own thread, in order, with retries.

Every poll and acknowledgement carries the agent's key (header ``Lifeline-Agent-Key``): the first poll claims the
job's commands for it, and while this agent polls, Lifeline refuses another agent's polls and acknowledgements
(409). A poll refused because another agent holds the claim is retried after the ``Retry-After`` it names (the other
agent may have stopped without releasing it); on exit the claim is released (:meth:`CommandChannel.release`) so the
job's next agent takes over at once.
"""

from __future__ import annotations

import collections
import json
import queue
import threading
import time
import urllib.parse
from typing import Any, Callable, Optional, Tuple

from ._util import LOG, RateLimitedLog, parse_rfc3339
from .transport import DELIVERED, GIVE_UP, Backoff, Http, TransportError, classify, problem_summary, \
    retry_after_seconds

PREFIX = "lifeline.command."
KEY_HEADER = "Lifeline-Agent-Key"
KINDS = ("checkpoint_now", "prepare_exit", "rescale_notice", "restore_from", "set_checkpoint_interval",
         "capture_stacks", "restart_workers")
MAX_DETAIL = 1000

#: An acknowledgement waiting to be sent: (command id, status, detail).
Ack = Tuple[str, str, Optional[str]]


class Command:
    """One command as received."""

    __slots__ = ("id", "type", "kind", "data", "time", "deadline", "subject")

    def __init__(self, id_: str, type_: str, data: object, time_: str | None = None,
                 subject: str | None = None) -> None:
        self.id = id_
        self.type = type_
        self.kind = type_[len(PREFIX):] if type_ and type_.startswith(PREFIX) else (type_ or "")
        self.data: dict[str, Any] = data if isinstance(data, dict) else {}
        self.time = time_
        self.subject = subject
        self.deadline = parse_rfc3339(self.data.get("deadline"))

    @classmethod
    def from_event(cls, e: object) -> Command | None:
        if not isinstance(e, dict) or not isinstance(e.get("id"), str) or not e.get("id"):
            return None
        data = e.get("data")
        if isinstance(data, str):
            try:
                data = json.loads(data)
            except ValueError:
                data = {}
        return cls(e["id"], e.get("type") or "", data, e.get("time"), e.get("subject"))

    def get(self, key: str, default: Any = None) -> Any:
        """The value of ``key`` in the command's data (strings, as Lifeline sends them), ``default`` when absent."""
        v = self.data.get(key)
        return default if v is None else v

    def __repr__(self) -> str:
        return "Command(%s %s %s)" % (self.kind, self.id, self.data)


class CommandChannel:
    """Polls for commands and sends acknowledgements. ``handler(command)`` is called in the polling thread for each
    new command; it answers through :meth:`ack`."""

    def __init__(self, http: Http, namespace: str, name: str, handler: Callable[[Command], None], wait: int = 30,
                 backoff: Backoff | None = None, remember: int = 4096, sleep: Callable[[float], None] | None = None,
                 clock: Callable[[], float] = time.monotonic, key: str | None = None) -> None:
        self._http = http
        self._base = "/api/v1/agents/%s/%s/commands" % (urllib.parse.quote(namespace, safe=""),
                                                        urllib.parse.quote(name, safe=""))
        if key is None:
            from .config import new_agent_key
            key = new_agent_key()
        self._headers = {KEY_HEADER: key}
        self._claimed = False
        self._handler = handler
        self.wait = int(wait)
        self.backoff = backoff or Backoff(base=1.0, cap=30.0)
        self._remember = remember
        self._seen: collections.OrderedDict[str, tuple[str, str | None] | None] = collections.OrderedDict()
        #                                          id -> last (status, detail) or None
        self._seen_lock = threading.Lock()
        self._sleep = sleep
        self._clock = clock
        self._stop = threading.Event()
        self._acks: queue.Queue[Ack] = queue.Queue()
        self._ack_busy = threading.Event()
        self._threads: list[threading.Thread] = []
        self._retry_after: float | None = None
        self._rlog = RateLimitedLog(burst=5, period=60.0)
        self._stats: collections.Counter[str] = collections.Counter()

    # ------------------------------------------------------------------ lifecycle
    def start(self) -> CommandChannel:
        if not self._threads:
            for target, name in ((self._poll_loop, "lifeline-commands"), (self._ack_loop, "lifeline-acks")):
                t = threading.Thread(target=target, name=name, daemon=True)
                t.start()
                self._threads.append(t)
        return self

    def stop(self) -> None:
        self._stop.set()

    def flush(self, timeout: float) -> bool:
        """Waits until the queued acknowledgements are sent (at most ``timeout`` s)."""
        deadline = self._clock() + timeout
        if not self._threads:
            while not self._acks.empty() and self._clock() < deadline:
                self._send_ack(*self._acks.get_nowait(), deadline=deadline)
            return self._acks.empty()
        while (not self._acks.empty() or self._ack_busy.is_set()) and self._clock() < deadline:
            time.sleep(0.02)
        return self._acks.empty() and not self._ack_busy.is_set()

    def stats(self) -> dict[str, int]:
        s = dict(self._stats)
        for k in ("polls", "received", "redelivered", "acks_sent", "acks_failed", "poll_errors", "claim_refused"):
            s.setdefault(k, 0)
        return s

    # ------------------------------------------------------------------ acknowledgements
    def ack(self, command_id: str, status: str, detail: str | None = None) -> None:
        """Queues an acknowledgement: ``accepted``, ``rejected``, ``done`` or ``failed``."""
        if detail is not None and len(detail) > MAX_DETAIL:
            detail = detail[:MAX_DETAIL - 3] + "..."
        with self._seen_lock:
            if command_id in self._seen:
                self._seen[command_id] = (status, detail)
        self._acks.put((command_id, status, detail))

    def ack_path(self, command_id: str) -> str:
        # The id may hold '/' and ':' (act-...:checkpoint:ns/name): kept as they are, as the server expects.
        return "%s/%s/ack" % (self._base, urllib.parse.quote(command_id, safe="/:@-._~"))

    def _ack_loop(self) -> None:
        while not self._stop.is_set():
            try:
                item = self._acks.get(timeout=0.5)
            except queue.Empty:
                continue
            self._ack_busy.set()
            try:
                self._send_ack(*item)
            finally:
                self._ack_busy.clear()

    def _send_ack(self, command_id: str, status: str, detail: str | None, deadline: float | None = None,
                  attempts: int = 8) -> bool:
        body = {"status": status}
        if detail:
            body["detail"] = detail
        data = json.dumps(body).encode("utf-8")
        for attempt in range(attempts):
            try:
                resp = self._http.request("POST", self.ack_path(command_id), body=data,
                                          content_type="application/json", headers=self._headers)
                outcome = classify(resp.status)
            except TransportError as e:
                resp, outcome, err = None, None, str(e)
            if outcome == DELIVERED:
                self._stats["acks_sent"] += 1
                LOG.info("lifeline: acknowledged command %s: %s%s", command_id, status,
                         " (%s)" % detail if detail else "")
                return True
            if outcome == GIVE_UP and resp is not None:
                self._stats["acks_failed"] += 1
                reasons = "; ".join(r[2] for r in problem_summary(resp)) or "no reason given"
                LOG.warning("lifeline: acknowledgement %s of command %s refused (HTTP %s): %s", status, command_id,
                            resp.status, reasons)
                return False
            if resp is not None:
                err = "HTTP %s" % resp.status
            ra = retry_after_seconds(resp.header("Retry-After")) if resp is not None else None
            delay = self.backoff.delay(attempt, ra)
            if deadline is not None:
                delay = min(delay, max(0.0, deadline - self._clock()))
                if delay <= 0:
                    break
            self._rlog(30, "lifeline: cannot acknowledge command %s (%s); retrying in %.1f s", command_id, err, delay)
            self._pause(delay)
            if self._stop.is_set():
                break
        self._stats["acks_failed"] += 1
        LOG.warning("lifeline: gave up acknowledging command %s with %s", command_id, status)
        return False

    def release(self, timeout: float = 2.0) -> bool:
        """Gives the job's claim up (at exit), so that the job's next agent takes its commands at once instead of
        after the claim lapses. Best effort: one request; False when it was not released."""
        if not self._claimed:
            return False
        try:
            resp = self._http.request("DELETE", self._base + "/claim", timeout=timeout, headers=self._headers)
        except TransportError as e:
            LOG.info("lifeline: the claim on the job's commands was not released (%s); it lapses by itself", e)
            return False
        self._claimed = False
        return resp.status == 200

    # ------------------------------------------------------------------ polling
    def _pause(self, seconds: float) -> None:
        if self._sleep is not None:
            self._sleep(seconds)
        else:
            self._stop.wait(seconds)

    def _poll_loop(self) -> None:
        attempt = 0
        while not self._stop.is_set():
            try:
                ok = self.poll_once()
            except Exception:  # noqa: BLE001 - the poller must survive anything
                LOG.exception("lifeline: command poll failed")
                ok = False
            if ok:
                attempt = 0
                continue
            self._pause(self._retry_delay(attempt))
            attempt += 1

    def _retry_delay(self, attempt: int) -> float:
        ra = self._retry_after
        self._retry_after = None
        return self.backoff.delay(attempt, ra)

    def poll_once(self) -> bool:
        """One long poll; dispatches what came. False when Lifeline did not answer well (the caller backs off)."""
        self._stats["polls"] += 1
        # Lifeline claims the job for this key as the poll arrives, long before it answers: a process that ends while
        # its first poll waits holds the claim too, and must give it up.
        self._claimed = True
        try:
            resp = self._http.request("GET", self._base, query={"wait": str(self.wait)},
                                      timeout=self.wait + self._http.timeout + 5, headers=self._headers)
        except TransportError as e:
            self._stats["poll_errors"] += 1
            self._rlog(30, "lifeline: cannot poll for commands: %s", e)
            return False
        if resp.status == 409:
            # Another agent holds the job's claim: it may be a launch that ended without releasing it (its claim
            # lapses at Retry-After), or an agent that is not this job's (an operator can release its claim).
            self._stats["claim_refused"] += 1
            self._claimed = False
            self._retry_after = retry_after_seconds(resp.header("Retry-After"))
            reasons = "; ".join(r[2] for r in problem_summary(resp)) or ""
            self._rlog(30, "lifeline: the job's commands are claimed by another agent; retrying: %s", reasons)
            return False
        if resp.status != 200:
            self._stats["poll_errors"] += 1
            self._retry_after = retry_after_seconds(resp.header("Retry-After"))
            reasons = "; ".join(r[2] for r in problem_summary(resp)) or ""
            self._rlog(30, "lifeline: command poll answered HTTP %s %s", resp.status, reasons)
            return False
        doc = resp.json()
        if not isinstance(doc, list):
            self._rlog(30, "lifeline: command poll answered something else than a JSON array")
            return False
        for item in doc:
            cmd = Command.from_event(item)
            if cmd is None:
                continue
            self.dispatch(cmd)
        return True

    def dispatch(self, cmd: Command) -> bool:
        """Acts on a command once: a redelivered id only gets its last acknowledgement again."""
        with self._seen_lock:
            redelivered = cmd.id in self._seen
            if redelivered:
                repeat = self._seen[cmd.id]
                self._seen.move_to_end(cmd.id)
                self._stats["redelivered"] += 1
            else:
                self._seen[cmd.id] = None
                while len(self._seen) > self._remember:
                    self._seen.popitem(last=False)
        if redelivered:
            if repeat is not None:
                LOG.info("lifeline: command %s delivered again; repeating acknowledgement %s", cmd.id, repeat[0])
                self._acks.put((cmd.id, repeat[0], repeat[1]))
            return False
        self._stats["received"] += 1
        LOG.info("lifeline: command %s (%s) %s", cmd.id, cmd.kind, cmd.data)
        try:
            self._handler(cmd)
        except Exception as e:  # noqa: BLE001
            LOG.exception("lifeline: handling command %s failed", cmd.id)
            self.ack(cmd.id, "rejected", "the trainer's agent failed on it: %s" % e)
        return True
