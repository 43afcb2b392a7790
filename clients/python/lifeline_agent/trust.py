"""Whether a checkpoint deserves to be restored: the loss the loop reports, and the rules that make a save suspect.

The loop passes its loss to ``agent.step(step, loss=...)``. The agent keeps a bounded window of the losses it
reported (one sample per ``LIFELINE_PROGRESS_INTERVAL``, the same samples ``trainer.progress`` carries), and judges
the loss at each save against it:

* a non-finite loss (NaN, +inf, -inf) makes the checkpoint suspect, reason ``non_finite_loss``;
* a loss above ``factor`` (``LIFELINE_SUSPECT_LOSS_FACTOR``, 10) times the median of the window, once the window
  holds at least :data:`MIN_LOSSES` finite losses and their median is above zero, makes it suspect, reason
  ``loss_spike`` (a loss that can be negative, a log-likelihood say, is never judged a spike);
* otherwise the save is trusted.

Lifeline applies the same rules to the same reports (and adds its own: a checkpoint never verified, an operator's
mark); the agent's verdict goes into the checkpoint's manifest, so that its restore helper skips a suspect
checkpoint without asking Lifeline. JSON has no NaN: a non-finite loss is sent as the string ``"nan"``, ``"inf"`` or
``"-inf"`` (:func:`loss_wire`).
"""

from __future__ import annotations

import collections
import math
import threading
from typing import Any

NON_FINITE = "non_finite_loss"
SPIKE = "loss_spike"
#: Losses kept for the median (the newest).
LOSS_WINDOW = 50
#: Finite losses the window must hold before a spike is judged at all.
MIN_LOSSES = 5
SUSPECT_LOSS_FACTOR = 10.0


def loss_wire(value: Any) -> float | str | None:
    """The loss as the events carry it: a finite number as it is, NaN as ``"nan"``, infinities as ``"inf"`` and
    ``"-inf"``; None when ``value`` is not a number at all."""
    try:
        v = float(value)
    except (TypeError, ValueError):
        return None
    if math.isnan(v):
        return "nan"
    if math.isinf(v):
        return "inf" if v > 0 else "-inf"
    return v


def loss_from_wire(value: Any) -> float | None:
    """The inverse of :func:`loss_wire` (a manifest's ``loss``); None for anything else."""
    if isinstance(value, str):
        return {"nan": math.nan, "inf": math.inf, "-inf": -math.inf}.get(value)
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return float(value)
    return None


def median(values: list[float]) -> float:
    s = sorted(values)
    n = len(s)
    mid = n // 2
    return s[mid] if n % 2 else (s[mid - 1] + s[mid]) / 2.0


class LossWatch:
    """The recent finite losses (at most ``window``) and the verdict on a loss against them. Thread-safe: the
    sender's thread adds samples, the training thread judges at a save."""

    def __init__(self, factor: float = SUSPECT_LOSS_FACTOR, window: int = LOSS_WINDOW) -> None:
        self.factor = float(factor)
        self._losses: collections.deque[float] = collections.deque(maxlen=max(1, int(window)))
        self._lock = threading.Lock()

    def add(self, loss: float) -> None:
        """A reported loss; only finite ones enter the window (a NaN says nothing about the scale)."""
        if math.isfinite(loss):
            with self._lock:
                self._losses.append(loss)

    def judge(self, loss: float | None) -> str | None:
        """Why a checkpoint saved at ``loss`` is suspect (:data:`NON_FINITE`, :data:`SPIKE`), or None: trusted (also
        when no loss was ever given)."""
        if loss is None:
            return None
        if not math.isfinite(loss):
            return NON_FINITE
        with self._lock:
            window = list(self._losses)
        if len(window) < MIN_LOSSES:
            return None
        m = median(window)
        if m > 0 and loss > self.factor * m:
            return SPIKE
        return None

    def __len__(self) -> int:
        with self._lock:
            return len(self._losses)


def describe(reason: str | None, loss: float | None, factor: float) -> str | None:
    """A sentence for the logs and the manifest."""
    if reason == NON_FINITE:
        return "saved after a non-finite loss (%s)" % loss_wire(loss)
    if reason == SPIKE:
        return "saved after a loss spike (%s, more than %g times the recent median)" % (loss, factor)
    return reason
