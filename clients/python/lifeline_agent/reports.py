"""The reports a worker sends on its own, from the sender's thread before each batch: its step times and heartbeat
(every rank, for finding a straggler or a stalled rank) and the job's progress (rank 0)."""

from __future__ import annotations

import collections
import time
from typing import TYPE_CHECKING, Sequence

if TYPE_CHECKING:
    from .agent import Agent

STEP_TIMES_KEPT = 4096                  # step durations a report summarises at most (the newest)


def _median(sorted_values: Sequence[float]) -> float:
    n = len(sorted_values)
    mid = n // 2
    return sorted_values[mid] if n % 2 else (sorted_values[mid - 1] + sorted_values[mid]) / 2.0


class StepTimes:
    """The durations of this rank's steps since its last trainer.step_times: the wall time between two steps
    (``durations``) and the time the loop says it worked (``busy``), bounded. The training thread appends to them in
    :meth:`Agent.step` (inlined there: a method call would cost a third of the hot path) when ``on``, after
    ``last``, the perf_counter of the previous step (set on every step, on or off: the heartbeat's and the stacks'
    ``sinceStepSeconds``), and sets ``first`` at the first step (when ``on``).

    Every ``step_times_interval`` seconds one report goes out, with or without steps since the last: it is this rank's
    heartbeat as well (see :mod:`lifeline_agent.phases`), so a rank whose training thread is stuck still says so."""

    __slots__ = ("on", "last", "first", "durations", "busy", "_agent", "_at", "_sent")

    def __init__(self, agent: Agent) -> None:
        self._agent = agent
        self.on = agent.config.step_times_interval > 0
        self.last: float | None = None
        self.first: float | None = None
        self.durations: collections.deque[float] = collections.deque(maxlen=STEP_TIMES_KEPT)
        self.busy: collections.deque[float] = collections.deque(maxlen=STEP_TIMES_KEPT)
        self._at = time.monotonic()
        self._sent = 0

    def since_step(self, now: float | None = None) -> float:
        """Seconds since this rank's latest step (before the first: since the agent started), perf_counter."""
        now = time.perf_counter() if now is None else now
        last = self.last
        return max(0.0, now - (last if last is not None else self._agent.phases.started))

    def tick(self, force: bool = False) -> None:
        """Sends the report when the interval has passed (or ``force``): a summary of the steps since the last one,
        or a heartbeat (``steps`` 0) when there were none."""
        agent = self._agent
        c = agent.config
        now = time.monotonic()
        if not self.on or (not force and now - self._at < c.step_times_interval):
            return
        durations, busy = self.durations, self.busy
        if durations:
            # Swapped whole: the training thread appends to the new deques; at worst one step lands in the old one
            # late.
            self.durations = collections.deque(maxlen=STEP_TIMES_KEPT)
            self.busy = collections.deque(maxlen=STEP_TIMES_KEPT)
        self._at = now
        d = sorted(durations)
        b = sorted(busy)
        perf = time.perf_counter()
        phase, since = agent.phases.current(self.first, self.last)
        self._sent += 1
        agent.emit(agent.events.step_times(
            agent.run_key, c.rank, len(d), agent.state.step, _median(d) if d else None, d[-1] if d else None,
            _median(b) if b and d else None, local_rank=c.local_rank, node=c.node,
            since_step_seconds=self.since_step(perf), phase=phase, phase_seconds=max(0.0, perf - since),
            report=self._sent))


class ProgressReport:
    """Rank 0: trainer.progress at most every ``progress_interval`` seconds, with the throughput since the last one
    and the loss of the latest step. Every rank samples its loss into the agent's window at the same times (the
    samples Lifeline judges trust by), whether it sends the report or not."""

    def __init__(self, agent: Agent) -> None:
        self._agent = agent
        self._at: float | None = None
        self._last: tuple[float, int, float, float] | None = None     # (monotonic, step, samples, tokens)

    def due_now(self) -> None:
        """The next tick reports, however recent the last report was."""
        self._at = None

    def tick(self, emit: bool = True) -> None:
        agent = self._agent
        state = agent.state
        now = time.monotonic()
        step = state.step
        if self._at is not None and now - self._at < agent.config.progress_interval:
            return
        last = self._last
        if last is not None and last[1] == step:
            return
        sps = tps = None
        if last is not None and now > last[0]:
            dt = now - last[0]
            if state.samples or last[2]:
                sps = (state.samples - last[2]) / dt
            if state.tokens or last[3]:
                tps = (state.tokens - last[3]) / dt
        self._at = now
        self._last = (now, step, state.samples, state.tokens)
        if step is None or step < 0:
            return
        loss = agent.current_loss()
        if loss is not None:
            agent.losses.add(loss)
        if emit:
            agent.emit(agent.events.progress(agent.run_key, step, sps, tps, loss=loss))
