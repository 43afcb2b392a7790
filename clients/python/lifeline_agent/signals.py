"""Signal handlers for the workers: SIGTERM (and SIGUSR1) ask for an emergency checkpoint at the next step.

torchrun forwards SIGTERM from its agent to every worker and sends SIGKILL ``--shutdown-timeout`` seconds later
(30 s by default). The handler itself only sets a flag (it may run between any two bytecodes of the training
thread, so it takes no lock and does no I/O); the agent's threads and its next step do the rest. Once the
checkpoint is done (or cannot be), :meth:`Signals.chain` hands the signal on to what was installed before:
a Python handler is called, the default action is carried out (the process dies of the signal, as torchrun
expects), an ignored signal stays ignored (training goes on).
"""

from __future__ import annotations

import os
import signal
import sys
import threading
import time
from types import FrameType
from typing import Any, Callable, Sequence, Union

from ._util import LOG

#: What a signal was set to do before: a Python handler, SIG_DFL, SIG_IGN, or None (not installed from Python).
Disposition = Union[Callable[[int, Union[FrameType, None]], Any], int, signal.Handlers, None]

PR_SET_PDEATHSIG = 1


def die_with_parent(signum: int = signal.SIGTERM) -> bool:
    """Linux: have the kernel send ``signum`` to this process when its parent (the torchrun agent) dies.

    torchrun starts each worker in a process group of its own, so a torchrun agent killed with SIGKILL (or the OOM
    killer) leaves its workers running, still in the group, with nothing left to restart them. With this they get
    SIGTERM instead, and so an emergency checkpoint. True when it is in place."""
    if not sys.platform.startswith("linux"):
        return False
    parent = os.getppid()
    try:
        import ctypes
        libc = ctypes.CDLL(None, use_errno=True)
        if libc.prctl(PR_SET_PDEATHSIG, int(signum), 0, 0, 0) != 0:
            return False
    except Exception:  # noqa: BLE001 - no libc, no prctl: not Linux as we know it
        return False
    if os.getppid() != parent:      # the parent died before prctl: nothing will be sent
        os.kill(os.getpid(), signum)
    return True


class Signals:
    """The agent's handlers for the signals named (``SIGTERM``...), and what each signal did before them."""

    def __init__(self, names: Sequence[str], on_signal: Callable[[int, FrameType | None], None]) -> None:
        self._names = names
        self._on_signal = on_signal
        self.previous: dict[int, Disposition] = {}
        self.installed: list[int] = []

    def install(self) -> Signals:
        if threading.current_thread() is not threading.main_thread():
            LOG.warning("lifeline: signal handlers can only be installed from the main thread; none installed")
            return self
        for name in self._names:
            sig = getattr(signal, name, None)
            if sig is None:
                LOG.warning("lifeline: no signal %s on this platform", name)
                continue
            try:
                self.previous[sig] = signal.getsignal(sig)
                signal.signal(sig, self._handle)
                self.installed.append(sig)
            except (ValueError, OSError) as e:
                LOG.warning("lifeline: cannot handle %s: %s", name, e)
        return self

    def uninstall(self) -> None:
        for sig in self.installed:
            prev = self.previous.get(sig)
            try:
                signal.signal(sig, prev if prev is not None else signal.SIG_DFL)
            except (ValueError, OSError, TypeError):
                pass
        self.installed = []

    def _handle(self, signum: int, frame: FrameType | None) -> None:
        self._on_signal(signum, frame)

    def chain(self, signum: int) -> None:
        """Carries out what the signal meant before the agent's handler: returns only when that was to ignore it
        (or a Python handler returned)."""
        prev = self.previous.get(signum, signal.SIG_DFL)
        if prev is None:
            prev = signal.SIG_DFL
        if prev == signal.SIG_IGN:
            LOG.warning("lifeline: signal %s was ignored before the agent handled it; training goes on", signum)
            return
        if callable(prev):
            prev(signum, None)
            return
        # The default action: terminate by the signal itself, so that the exit status says what happened.
        try:
            signal.signal(signum, signal.SIG_DFL)
        except (ValueError, OSError):
            pass
        os.kill(os.getpid(), signum)
        time.sleep(2.0)
        os._exit(128 + signum)
