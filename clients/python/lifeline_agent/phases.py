"""What a rank is doing, for the heartbeat (``trainer.step_times``) and the stacks it captures: the phase Lifeline
judges a stalled rank by.

By precedence: ``holding`` (held after prepare_exit), ``saving`` (a checkpoint save of this rank in progress),
``restoring``, a phase the training loop declared (``with agent.phase("evaluation"):``, the innermost wins),
``startup`` (no step yet in this process), else ``training``. Each comes with the time this rank entered it, so that a
long evaluation is not taken for a stalled step, and a stalled evaluation is still found.

All times are ``time.perf_counter()`` values: the clock :meth:`Agent.step` already reads.
"""

from __future__ import annotations

import re
import threading
import time
from types import TracebackType
from typing import Callable

_PHASE_NAME = re.compile(r"^[a-z][a-z0-9_-]{0,31}$")
#: The phases the agent detects itself, strongest first; a declared phase comes after them.
DETECTED = ("holding", "saving", "restoring")


def check_name(name: object) -> str:
    """``name`` when it is a phase name (``[a-z][a-z0-9_-]{0,31}``), else ValueError."""
    if not isinstance(name, str) or not _PHASE_NAME.match(name):
        raise ValueError("a phase name is 1 to 32 of a-z 0-9 _ - starting with a letter, got %r" % (name,))
    return name


class Phases:
    """The phases one worker is in. ``begin``/``end`` mark the detected ones (keyed, so that the same save reported
    twice, by the checkpoint helpers and by :meth:`Agent.run`, ends once); :meth:`declare` gives the training loop's
    context manager. Any thread may call them; the training thread's :meth:`Agent.step` never does."""

    def __init__(self, clock: Callable[[], float] = time.perf_counter) -> None:
        self._clock = clock
        self.started = clock()
        self._lock = threading.Lock()
        self._detected: dict[str, dict[object, float]] = {k: {} for k in DETECTED}
        self._declared: list[tuple[object, str, float]] = []
        self._ended: float | None = None      # when a phase last ended: training (or startup) counts from there

    def begin(self, kind: str, key: object) -> None:
        with self._lock:
            self._detected[kind].setdefault(key, self._clock())

    def end(self, kind: str, key: object) -> None:
        with self._lock:
            if self._detected[kind].pop(key, None) is not None:
                self._ended = self._clock()

    def declare(self, name: str) -> DeclaredPhase:
        return DeclaredPhase(self, check_name(name))

    def _push(self, token: object, name: str) -> None:
        with self._lock:
            self._declared.append((token, name, self._clock()))

    def _pop(self, token: object) -> None:
        with self._lock:
            for i in range(len(self._declared) - 1, -1, -1):
                if self._declared[i][0] is token:
                    del self._declared[i]
                    self._ended = self._clock()
                    break

    def current(self, first_step: float | None, last_step: float | None) -> tuple[str, float]:
        """(phase, perf_counter time it was entered), given the times of this process's first and latest step (None
        before the first; the first may be unknown, then the latest stands for it)."""
        with self._lock:
            for kind in DETECTED:
                marks = self._detected[kind]
                if marks:
                    return kind, min(marks.values())
            if self._declared:
                _, name, since = self._declared[-1]
                return name, since
            ended = self._ended
        if last_step is None:
            return "startup", max(self.started, ended or self.started)
        since = first_step if first_step is not None else last_step
        return "training", max(since, ended or since)


class DeclaredPhase:
    """``with agent.phase("evaluation"):``: the phase holds inside the block; nested ones win while they last and
    leaving one gives the outer one back (with its own start time). Reusable, not reentrant."""

    __slots__ = ("_phases", "name", "_token")

    def __init__(self, phases: Phases, name: str) -> None:
        self._phases = phases
        self.name = name
        self._token: object | None = None

    def __enter__(self) -> DeclaredPhase:
        self._token = object()
        self._phases._push(self._token, self.name)
        return self

    def __exit__(self, etype: type[BaseException] | None, value: BaseException | None,
                 tb: TracebackType | None) -> None:
        if self._token is not None:
            self._phases._pop(self._token)
            self._token = None


class NoPhase:
    """The no-op agent's phase: checks the name like the real one (a script fails alike with and without Lifeline)
    and does nothing."""

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = check_name(name)

    def __enter__(self) -> NoPhase:
        return self

    def __exit__(self, etype: type[BaseException] | None, value: BaseException | None,
                 tb: TracebackType | None) -> None:
        return None
