"""What the training thread, the signal handler and the agent's threads share."""

from __future__ import annotations

import collections
import threading

INF = float("inf")


class SharedState:
    """The state of one worker that several threads touch. The training thread writes ``step``, ``samples`` and
    ``tokens`` (and ``loss`` when given) on every step and the signal handler sets ``signalled``: plain attributes (atomic under the GIL), so
    the hot path takes no lock. ``attention`` is the first step at which the training thread has to look up from its
    loop (the smallest of what its sources ask, see :meth:`set_attention`); ``exit_wanted``: the job was asked to stop
    (prepare_exit, a signal); ``counters``: what :meth:`Agent.stats` adds up."""

    __slots__ = ("step", "samples", "tokens", "loss", "attention", "signalled", "exit_wanted", "counters", "_attn", "_lock")

    def __init__(self) -> None:
        self.step: int = 0
        self.samples: float = 0
        self.tokens: float = 0
        self.loss: object = None        # the loss the loop gave with its latest step (None: never given)
        self.attention: float = INF
        self.signalled = False
        self.exit_wanted = False
        self.counters: collections.Counter[str] = collections.Counter()
        self._attn: dict[str, float] = {}
        self._lock = threading.Lock()

    def set_attention(self, source: str, value: float) -> None:
        """``source`` (the coordinator's plans, the generation to establish) wants the training thread to look up at
        step ``value`` (``INF``: not at all)."""
        with self._lock:
            self._attn[source] = value
            self.attention = min(self._attn.values())
