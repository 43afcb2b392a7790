"""A termination signal (SIGTERM, SIGUSR1): an emergency checkpoint at the next agreed step, then the signal handed on.

torchrun gives its workers ``--shutdown-timeout`` seconds between SIGTERM and SIGKILL. The handler only records the
signal (see :mod:`lifeline_agent.signals`); the training thread's next step, or the watcher thread when the training
thread is busy, notices it and asks the coordinator for an agreed save. A save that cannot finish inside the window
is reported failed before the worker is killed, never left as if it might still complete.
"""

from __future__ import annotations

import threading
import time
from types import FrameType
from typing import TYPE_CHECKING

from ._util import LOG
from .state import INF

if TYPE_CHECKING:
    from .agent import Agent
    from .coord import Plan


class EmergencyExit:
    """The signal of one worker: ``signal`` is (signum, monotonic, epoch seconds) of the first one, None before."""

    def __init__(self, agent: Agent) -> None:
        self._agent = agent
        self._lock = threading.Lock()
        self.signal: tuple[int, float, float] | None = None
        self._noticed = False
        self._done = threading.Event()       # the emergency checkpoint was reported (saved, failed or impossible)
        self._stopped = threading.Event()
        self._watcher: threading.Thread | None = None

    # ------------------------------------------------------------------ the handler
    def on_signal(self, signum: int, frame: FrameType | None) -> None:
        """The signal handler's work. It runs between two bytecodes of the training thread: plain attribute writes
        only."""
        if self.signal is None:
            self.signal = (signum, time.monotonic(), time.time())
        self._agent.state.signalled = True

    def notice(self) -> None:
        """First look at a signal outside the handler (training thread or the watcher): tells the coordinator."""
        with self._lock:
            if self._noticed or self.signal is None:
                return
            self._noticed = True
        agent = self._agent
        signum = self.signal[0]
        agent.state.exit_wanted = True
        agent.state.counters["signals"] += 1
        holding = agent.hold.current
        if holding is not None:
            LOG.warning("lifeline: signal %d while holding at step %s: checkpoint %s is current; exiting", signum,
                        holding[0], holding[1])
            return
        LOG.warning("lifeline: signal %d at step %s: emergency checkpoint at the next agreed step, then exit "
                    "(window %.0f s)", signum, agent.state.step, agent.config.shutdown_timeout)
        agent.coordinator.signal()

    # ------------------------------------------------------------------ the window
    def window_left(self) -> float:
        """Seconds left of the SIGTERM -> SIGKILL window (infinite before a signal)."""
        if self.signal is None:
            return INF
        return self.signal[1] + self._agent.config.shutdown_timeout - time.monotonic()

    def out_of_time(self, margin: float = 3.0) -> bool:
        """After a signal, whether less than ``margin`` seconds of the window are left: no time to wait for others."""
        return self._agent.state.signalled and self.window_left() < margin

    def ends_after(self, plan: Plan) -> bool:
        """After a signal, this rank ends after the emergency save (or any save the other ranks hold after);
        an unrelated save already planned is done first, and the process goes on to the emergency one."""
        agent = self._agent
        if self.signal is None or not agent.config.signal_exit:
            return False
        return plan.kind == "save" and (plan.reason == "signal" or plan.hold or agent.coordinator.kind != "store")

    def abandoned(self) -> bool:
        """No agreed step came in time for the emergency checkpoint (rank 0 gone or stuck): reported once."""
        agent = self._agent
        if self.signal is None or agent.coordinator.pending_requests():
            return False
        waited = time.monotonic() - self.signal[1]
        limit = min(10.0, max(1.0, agent.config.shutdown_timeout / 3.0))
        if waited < limit:
            return False
        if not self._done.is_set():
            step = agent.state.step
            cid = agent.checkpoint_name(step)
            agent.emit(agent.events.checkpoint_failed(cid, step, "signal %d at step %d: no step was agreed with "
                                                      "rank 0 within %.0f s; no checkpoint taken"
                                                      % (self.signal[0], step, limit)))
            self._done.set()
        return True

    # ------------------------------------------------------------------ the watcher thread
    def start(self) -> None:
        if self._watcher is None:
            self._watcher = threading.Thread(target=self._watch, name="lifeline-signals", daemon=True)
            self._watcher.start()

    def stop(self) -> None:
        self._stopped.set()

    def _watch(self) -> None:
        """Notices a signal even while the training thread is busy, and reports a checkpoint that cannot finish
        inside the SIGTERM -> SIGKILL window."""
        agent = self._agent
        while not self._stopped.is_set():
            if not agent.state.signalled or self._done.is_set():
                time.sleep(0.1)
                continue
            self.notice()
            margin = min(3.0, max(0.5, agent.config.shutdown_timeout * 0.1))
            while not self._done.is_set() and self.window_left() > margin:
                self._done.wait(0.1)
            saving = agent.saves.saving
            if not self._done.is_set() and (agent.is_rank0 or saving is not None):
                step = saving[1] if saving else agent.state.step
                cid = saving[0] if saving else agent.checkpoint_name(step)
                what = "the save was still running" if saving else "the training loop did not reach the agreed step"
                signum = self.signal[0] if self.signal else 15
                err = ("signal %d: the %.0f s shutdown window ran out before the checkpoint completed (%s); torchrun "
                       "kills the worker now" % (signum, agent.config.shutdown_timeout, what))
                LOG.error("lifeline: %s", err)
                agent.emit(agent.events.checkpoint_failed(cid, step, err))
                self._done.set()
                agent.sender.flush(max(0.2, self.window_left() - 0.2))

    # ------------------------------------------------------------------ exit
    def exit_now(self) -> None:
        """After the emergency checkpoint (or when there is nothing to save): flush, then hand the signal on."""
        agent = self._agent
        signum = self.signal[0] if self.signal else 15
        self._done.set()
        budget = max(0.2, min(agent.config.flush_timeout, self.window_left() - 0.5))
        agent.flush(budget)
        if agent.commands is not None:
            # The process ends with the signal, before atexit would release the claim. torchrun may restart the group
            # with rank 0 (whose agent polls) on another node and key: given up now, it claims the commands at once.
            agent.commands.release(timeout=max(0.2, min(2.0, self.window_left() - 0.3)))
        LOG.warning("lifeline: exiting on signal %d at step %s", signum, agent.state.step)
        if agent.signals is not None:
            agent.signals.chain(signum)
        else:
            raise SystemExit(128 + signum)
        # The signal was ignored before: training goes on.
        agent.state.signalled = False
        self.signal = None
        self._noticed = False
        agent.state.exit_wanted = False
        self._done.clear()
