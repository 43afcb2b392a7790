"""Holding after a prepare_exit save: the ranks wait at the saved step, beating a tiny collective, until they are
stopped, the hold passes its deadline and grace (then they resume), or a peer goes away (then this worker ends)."""

from __future__ import annotations

import threading
import time
from typing import TYPE_CHECKING, Any, Tuple

from ._util import LOG, rfc3339

if TYPE_CHECKING:
    from .agent import Agent
    from .task import Task

#: torch, torch.distributed and the device their collectives use.
Collective = Tuple[Any, Any, str]


class PeerLostError(RuntimeError):
    """A peer rank went away while this rank was holding after prepare_exit. Let it propagate: torchrun then
    restarts the surviving workers, which rendezvous at the smaller world size and resume from the checkpoint
    saved before the hold, losing no step."""


class Hold:
    """The hold of one worker: where it holds (``current``: step and checkpoint id, None when not holding) and
    until when (``until``, epoch seconds)."""

    def __init__(self, agent: Agent) -> None:
        self._agent = agent
        self._lock = threading.Lock()
        self.current: tuple[int, str | None] | None = None
        self.until: float | None = None

    def extend(self, until: float) -> None:
        """Holds at least until ``until`` (epoch seconds): a prepare_exit that came during the hold."""
        with self._lock:
            self.until = max(self.until or 0, until)

    def hold(self, task: Task, checkpoint_id: str | None) -> None:
        """Training thread, after the save of ``task``: holds until stopped, or resumes past the deadline and grace.
        Raises :class:`PeerLostError` when a peer goes away meanwhile."""
        agent = self._agent
        c = agent.config
        step = task.step
        dl = task.deadline
        if task.reason == "signal" or dl is None:
            until = time.time() + c.shutdown_timeout + c.hold_grace
        else:
            until = dl.timestamp() + c.hold_grace
        with self._lock:
            self.until = max(self.until or 0, until)
            self.current = (step, checkpoint_id)
        LOG.warning("lifeline: holding at step %d after %s (checkpoint %s) until stopped or %s", step, task.reason,
                    checkpoint_id, rfc3339(self.until))
        agent.phases.begin("holding", task)
        agent.callbacks.fire("hold", step)
        try:
            self._beat(step)
        finally:
            with self._lock:
                self.current = None
                self.until = None
            agent.phases.end("holding", task)
        agent.state.exit_wanted = False
        LOG.warning("lifeline: resuming at step %d: the hold passed its deadline and grace", step)
        agent.callbacks.fire("resume", step)

    def _exit_on_signal(self) -> None:
        """A termination signal during the hold: the checkpoint is current, so the worker ends now."""
        agent = self._agent
        if agent.state.signalled and agent.config.signal_exit:
            agent.emergency.notice()
            agent.emergency.exit_now()

    @staticmethod
    def _collective() -> Collective | None:
        try:
            import torch
            import torch.distributed as dist
        except Exception:  # noqa: BLE001
            return None
        if not (dist.is_available() and dist.is_initialized()) or dist.get_world_size() <= 1:
            return None
        device = "cpu"
        try:
            if dist.get_backend() == "nccl":
                device = "cuda:%d" % torch.cuda.current_device()
        except Exception:  # noqa: BLE001
            pass
        return torch, dist, device

    def _beat(self, step: int) -> None:
        """Until every rank wants to resume (the minimum of their wishes, one collective per heartbeat)."""
        c = self._agent.config
        coll = self._collective()
        while True:
            self._exit_on_signal()
            wants_resume = 1 if time.time() >= (self.until or 0) else 0
            if coll is None:
                if wants_resume:
                    return
                self._sleep(min(0.1, c.hold_heartbeat))
                continue
            torch, dist, device = coll
            t = torch.tensor([wants_resume], dtype=torch.int64, device=device)
            try:
                work = dist.all_reduce(t, op=dist.ReduceOp.MIN, async_op=True)
                started = time.monotonic()
                while not work.is_completed():
                    self._exit_on_signal()
                    if time.monotonic() - started > c.hold_timeout:
                        raise PeerLostError("no answer from the other ranks for %.0f s while holding at step %d"
                                            % (c.hold_timeout, step))
                    time.sleep(0.02)
                work.wait()
            except PeerLostError:
                raise
            except Exception as e:  # noqa: BLE001 - gloo/nccl raise RuntimeError subclasses
                LOG.warning("lifeline: a peer left while holding at step %d (%s); ending this worker so that torchrun "
                            "restarts the group from the checkpoint", step, str(e).splitlines()[0][:200])
                self._agent.state.counters["peer_lost"] += 1
                raise PeerLostError("a peer left while holding at step %d: %s" % (step, str(e).splitlines()[0]))
            if int(t.item()) == 1:
                return
            self._sleep(c.hold_heartbeat)

    def _sleep(self, seconds: float) -> None:
        """Sleeps ``seconds``, or less when a termination signal comes that ends the worker."""
        agent = self._agent
        end = time.monotonic() + seconds
        while not (agent.state.signalled and agent.config.signal_exit):
            left = end - time.monotonic()
            if left <= 0:
                return
            time.sleep(min(left, 0.05))
