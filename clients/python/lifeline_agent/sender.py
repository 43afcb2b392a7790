"""Background delivery of events to Lifeline: a bounded buffer, batches, retries with backoff, drop accounting.

The training thread only ever calls :meth:`BatchSender.add`, which appends to a deque under a short lock (and, for a
lifecycle event, sets an :class:`threading.Event`). All network work happens in the sender's daemon thread.

Buffer: at most ``capacity`` items wait. When it is full, the oldest *telemetry* item (``trainer.progress``) is
dropped first; only when no telemetry is left does the oldest *lifecycle* item go. Drops are counted
(:meth:`stats`) and logged when Lifeline answers again. Items leave the buffer in the order they were added.

Delivery: one batch per request. 2xx: delivered (the server's per-item rejections are logged and those items are
dropped: a rejected event is never sent again). 408, 429, 5xx and no answer at all: retried with exponential
backoff and jitter, never sooner than the server's ``Retry-After``. Any other 4xx: the batch is given up and logged
(a 413 splits the batch first).
"""

from __future__ import annotations

import collections
import itertools
import json
import threading
import time
from typing import Any, Callable, Generic, Mapping, Sequence, TypeVar

from ._util import LOG, RateLimitedLog
from .transport import DELIVERED, GIVE_UP, RETRY, Backoff, Http, Reason, Response, TransportError, classify, counts, \
    problem_summary, retry_after_seconds

TELEMETRY = False
LIFECYCLE = True

#: What a sender queues: a CloudEvent (a dict) or an NDJSON line (a str).
Item = TypeVar("Item")


def encode_cloudevents(items: Sequence[Mapping[str, Any]]) -> bytes:
    return json.dumps(items, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def encode_ndjson(items: Sequence[str]) -> bytes:
    return ("\n".join(items) + "\n").encode("utf-8")


class BatchSender(Generic[Item]):
    """One endpoint's queue and delivery thread."""

    def __init__(self, http: Http, path: str, content_type: str, encode: Callable[[list[Item]], bytes],
                 name: str = "events", capacity: int = 10000, batch: int = 500, flush_interval: float = 1.0,
                 backoff: Backoff | None = None, query: Mapping[str, str] | None = None,
                 before_batch: Callable[[], None] | None = None, clock: Callable[[], float] = time.monotonic,
                 sleep: Callable[[float], None] | None = None) -> None:
        self._http = http
        self._path = path
        self._content_type = content_type
        self._encode = encode
        self.name = name
        self.capacity = max(1, int(capacity))
        self.batch = max(1, int(batch))
        self.flush_interval = flush_interval
        self.backoff = backoff or Backoff()
        self.query = query
        self._before_batch = before_batch
        self._clock = clock
        self._sleep = sleep          # tests inject a fake; default: an interruptible wait
        self._tele: collections.deque[tuple[int, Item]] = collections.deque()
        self._life: collections.deque[tuple[int, Item]] = collections.deque()
        self._seq = itertools.count()
        self._lock = threading.Lock()
        self._idle = threading.Condition(self._lock)
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._inflight = 0
        self._flush_deadline: float | None = None
        self._thread: threading.Thread | None = None
        self._gate: threading.Event | None = None
        self._down_since: float | None = None
        self._unreported = [0, 0]    # drops (telemetry, lifecycle) not yet logged
        self._rlog = RateLimitedLog(burst=10, period=60.0)
        self._stats: collections.Counter[str] = collections.Counter()
        self._last_error: str | None = None

    # ------------------------------------------------------------------ hot path
    def add(self, item: Item, lifecycle: bool = LIFECYCLE) -> None:
        """Queues one item; never blocks on the network. Drops the oldest telemetry (then lifecycle) when full."""
        with self._lock:
            if len(self._tele) + len(self._life) >= self.capacity:
                if self._tele:
                    self._tele.popleft()
                    self._stats["dropped_telemetry"] += 1
                    self._unreported[0] += 1
                else:
                    self._life.popleft()
                    self._stats["dropped_lifecycle"] += 1
                    self._unreported[1] += 1
            (self._life if lifecycle else self._tele).append((next(self._seq), item))
            self._stats["queued"] += 1
        if lifecycle:
            self._wake.set()

    # ------------------------------------------------------------------ control
    def wake(self) -> None:
        """Has the sender thread run its before-batch hook and deliver now rather than at the next flush interval."""
        self._wake.set()

    def gate(self, event: threading.Event) -> None:
        """Holds delivery until ``event`` is set (for example until job.submitted is delivered)."""
        self._gate = event

    def start(self) -> BatchSender[Item]:
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="lifeline-" + self.name, daemon=True)
            self._thread.start()
        return self

    def pending(self) -> int:
        with self._lock:
            return len(self._tele) + len(self._life) + self._inflight

    def flush(self, timeout: float) -> bool:
        """Sends what is queued now, waiting at most ``timeout`` seconds. True when everything was delivered
        (or given up on after a definitive answer)."""
        deadline = self._clock() + max(0.0, timeout)
        with self._lock:
            self._flush_deadline = deadline
        self._wake.set()
        if self._thread is None:
            self.drain(deadline=deadline)
        with self._lock:
            while len(self._tele) + len(self._life) + self._inflight > 0:
                left = deadline - self._clock()
                if left <= 0:
                    break
                self._idle.wait(min(left, 0.05))
            left_over = len(self._tele) + len(self._life) + self._inflight
            self._flush_deadline = None
        if left_over:
            LOG.warning("lifeline %s: %d item(s) not delivered before the flush timeout (%.1f s)",
                        self.name, left_over, timeout)
        return left_over == 0

    def close(self, timeout: float = 0.0) -> bool:
        ok = self.flush(timeout) if timeout > 0 else self.pending() == 0
        self._stop.set()
        self._wake.set()
        return ok

    def stats(self) -> dict[str, Any]:
        with self._lock:
            s: dict[str, Any] = dict(self._stats)
            s["buffered"] = len(self._tele) + len(self._life)
            s["inflight"] = self._inflight
            if self._last_error is not None:
                s["last_error"] = self._last_error
        for k in ("queued", "sent_requests", "delivered", "accepted", "duplicates", "rejected", "given_up",
                  "dropped_telemetry", "dropped_lifecycle", "retries"):
            s.setdefault(k, 0)
        return s

    # ------------------------------------------------------------------ delivery
    def _take(self) -> list[Item]:
        with self._lock:
            out: list[Item] = []
            while len(out) < self.batch and (self._tele or self._life):
                if self._life and (not self._tele or self._life[0][0] < self._tele[0][0]):
                    out.append(self._life.popleft()[1])
                else:
                    out.append(self._tele.popleft()[1])
            self._inflight = len(out)
            return out

    def _done(self) -> None:
        with self._lock:
            self._inflight = 0
            self._idle.notify_all()

    def _wait(self, seconds: float) -> None:
        if self._sleep is not None:
            self._sleep(seconds)
            return
        self._stop.wait(seconds)

    def _run(self) -> None:
        while not self._stop.is_set():
            self._wake.wait(self.flush_interval)
            self._wake.clear()
            if self._stop.is_set():
                break
            if self._gate is not None and not self._gate.is_set() and self._flush_deadline is None:
                continue
            try:
                self.drain()
            except Exception:  # noqa: BLE001 - the sender must survive anything
                LOG.exception("lifeline %s: sender error", self.name)
                self._done()

    def drain(self, deadline: float | None = None) -> None:
        """Delivers batches until the buffer is empty (or the flush deadline passes). Runs in the sender thread;
        tests call it directly."""
        if self._before_batch is not None:
            try:
                self._before_batch()
            except Exception:  # noqa: BLE001
                LOG.exception("lifeline %s: before-batch hook failed", self.name)
        while not self._stop.is_set():
            items = self._take()
            if not items:
                self._done()
                return
            self._deliver(items, deadline)
            self._done()

    def _past(self, deadline: float | None) -> bool:
        d = deadline if deadline is not None else self._flush_deadline
        return d is not None and self._clock() >= d

    def _deliver(self, items: list[Item], deadline: float | None = None) -> bool:
        attempt = 0
        while True:
            body = self._encode(items)
            self._stats["sent_requests"] += 1
            try:
                resp = self._http.request("POST", self._path, body=body, content_type=self._content_type,
                                          query=self.query)
                outcome, status = classify(resp.status), resp.status
            except TransportError as e:
                resp, outcome, status = None, RETRY, None
                err = str(e)
            if outcome == DELIVERED:
                self._delivered(items, resp)
                return True
            if outcome == GIVE_UP:
                if status == 413 and len(items) > 1:
                    half = len(items) // 2
                    return self._deliver(items[:half], deadline) and self._deliver(items[half:], deadline)
                self._stats["given_up"] += len(items)
                reasons = problem_summary(resp)
                self._rlog(30, "lifeline %s: Lifeline answered %s and refused %d item(s); dropped: %s", self.name,
                           status, len(items), "; ".join(self._reason_text(items, r) for r in reasons[:5])
                           or "(no reason given)")
                self._mark_up()
                return False
            # RETRY
            if status is not None:
                err = "HTTP %s" % status
            if self._down_since is None:
                self._down_since = self._clock()
            self._stats["retries"] += 1
            self._last_error = err
            ra = retry_after_seconds(resp.header("Retry-After")) if resp is not None else None
            delay = self.backoff.delay(attempt, ra)
            attempt += 1
            self._rlog(30, "lifeline %s: cannot deliver %d item(s) (%s); %d buffered, retrying in %.1f s", self.name,
                       len(items), err, self.pending(), delay)
            if self._stop.is_set() or self._past(deadline):
                # Flushing at exit and out of time: leave them (counted as not delivered by flush()).
                with self._lock:
                    for it in reversed(items):
                        self._life.appendleft((-1, it))
                    self._inflight = 0
                return False
            # Read once: a flush in another thread may end (and clear its deadline) meanwhile.
            d = deadline if deadline is not None else self._flush_deadline
            if d is not None:
                delay = max(0.0, min(delay, d - self._clock()))
            self._wait(delay)

    @staticmethod
    def _reason_text(items: Sequence[object], r: Reason) -> str:
        index, ident, reason = r
        if ident is None and isinstance(index, int) and 0 <= index < len(items):
            item = items[index]
            if isinstance(item, dict):
                ident = item.get("id")
        return "%s%s" % ("[%s] " % ident if ident else "", reason)

    def _delivered(self, items: list[Item], resp: Response | None) -> None:
        accepted, duplicates, rejected = counts(resp)
        self._stats["delivered"] += len(items)
        self._stats["accepted"] += accepted
        self._stats["duplicates"] += duplicates
        self._stats["rejected"] += rejected
        if rejected:
            for r in problem_summary(resp)[:10]:
                self._rlog(30, "lifeline %s: Lifeline rejected an item (dropped, not resent): %s", self.name,
                           self._reason_text(items, r))
        self._mark_up()

    def _mark_up(self) -> None:
        if self._down_since is not None:
            LOG.warning("lifeline %s: Lifeline answers again after %.1f s", self.name,
                        self._clock() - self._down_since)
            self._down_since = None
        with self._lock:
            tele, life = self._unreported
            self._unreported = [0, 0]
        if tele or life:
            LOG.warning("lifeline %s: the buffer (%d items) overflowed while Lifeline was slow or unreachable: "
                        "dropped %d telemetry and %d lifecycle item(s)", self.name, self.capacity, tele, life)
