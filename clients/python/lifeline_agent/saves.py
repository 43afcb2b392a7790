"""The checkpoints of one worker as the checkpoint helpers report them, and the saves planned by time."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from .coord import Wish

if TYPE_CHECKING:
    from .agent import Agent


class SaveTracker:
    """What the checkpoint helpers told the agent: the save running now (``saving``: id, step, monotonic start), the
    newest good checkpoint (``last_checkpoint``, ``last_save``: monotonic time and step) and the restores; and the
    interval of agent-planned saves (``interval`` seconds, None: off), which rank 0 keeps with :meth:`tick`."""

    def __init__(self, agent: Agent, interval: float | None) -> None:
        self._agent = agent
        self.interval = interval
        self.last_save: tuple[float, int | None] = (time.monotonic(), None)
        self.last_checkpoint: str | None = None
        self.saving: tuple[str, int, float] | None = None
        self.restores = 0

    def note_checkpoint(self, checkpoint_id: str, step: int, ok: bool = True) -> None:
        """A save ended; the interval clock starts again on a good one."""
        if ok:
            self.last_save = (time.monotonic(), step)
            self.last_checkpoint = checkpoint_id
        self.saving = None
        self._agent.phases.end("saving", checkpoint_id)

    def note_saving(self, checkpoint_id: str, step: int) -> None:
        self.saving = (checkpoint_id, step, time.monotonic())
        self._agent.phases.begin("saving", checkpoint_id)

    def note_restore(self, checkpoint_id: str, step: int) -> int:
        """A restore: training goes on after ``step``. Sends trainer.restored (rank 0) and returns its seq."""
        agent = self._agent
        agent.state.step = step
        self.last_save = (time.monotonic(), step)
        seq = self.restores
        self.restores += 1
        if agent.is_rank0:
            agent.emit(agent.events.restored(agent.run_key, checkpoint_id, step, run_id=agent.config.run_id, seq=seq))
        return seq

    def tick(self) -> None:
        """Rank 0, in the sender's thread: a time-based save when the interval has passed since the newest
        checkpoint."""
        agent = self._agent
        interval = self.interval
        if not interval or agent.hold.current is not None or agent.emergency.signal is not None:
            return
        if time.monotonic() - self.last_save[0] < interval or self.last_save[1] == agent.state.step:
            return
        for w in agent.coordinator.pending_requests():
            if w.kind == "save":
                return
        self.last_save = (time.monotonic(), self.last_save[1])
        agent.coordinator.request(Wish("save", "periodic", False, None, None))
