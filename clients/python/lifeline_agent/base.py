"""The API every agent has, and the agent that does nothing (Lifeline not configured)."""

from __future__ import annotations

import datetime
import time
from typing import TYPE_CHECKING, Any, Callable, Optional

from ._util import LOG, CallbackT, safe_name
from .config import Config
from .events import Event, EventFactory
from .phases import NoPhase
from .trust import LossWatch, loss_from_wire, loss_wire

if TYPE_CHECKING:
    from .coord import Coordinator
    from .handler import RestoreCheck, StorageCheck
    from .task import Task

#: The training loop's save: returns the checkpoint id (or a result with a ``checkpoint_id``).
SaveFn = Callable[[], Any]
#: The training loop's restore: ``restore(checkpoint_id, uri)`` returns the step restored (or a result with a ``step``).
RestoreFn = Callable[[str, Optional[str]], Any]


class AgentBase:
    """The API both agents share: who this worker is, and what its checkpoints are named."""

    enabled = False
    #: How the ranks agree on steps (the enabled agent's); None: this process's own numbers name checkpoints.
    coordinator: Coordinator | None = None

    def __init__(self, config: Config) -> None:
        self.config = config
        #: The recent losses the loop reported, which judge a save's trust (see :mod:`lifeline_agent.trust`).
        self.losses = LossWatch(config.suspect_loss_factor)

    def current_loss(self) -> float | None:
        """The loss the loop gave with its latest step (as a float), or None when it never gave one."""
        return None

    def current_step(self) -> int:
        return 0

    @property
    def rank(self) -> int:
        return self.config.rank

    @property
    def world_size(self) -> int:
        return self.config.world_size

    @property
    def is_rank0(self) -> bool:
        return self.config.rank == 0

    @property
    def run_key(self) -> str:
        return self.config.run_key

    def incarnation(self) -> int:
        """The restart count that names this worker group's checkpoints: global rank 0's (each torchrun agent
        counts its own restarts; the ranks learn rank 0's at the first step), else this process's own."""
        coord = self.coordinator
        g = coord.group_restart() if coord is not None else None
        return self.config.restart_count if g is None else g

    def launch_tag(self) -> str | None:
        """The launch that names this worker group's checkpoints (8 hex digits, or None): global rank 0's, learned
        with its restart count, else this process's own."""
        coord = self.coordinator
        if coord is not None and coord.group_launch_known():
            return coord.group_launch()
        return self.config.launch_tag

    def begin_phase(self, kind: str, key: object) -> None:
        """A save (``"saving"``) or restore (``"restoring"``) identified by ``key`` began (the checkpoint helpers tell
        it; the heartbeat reports it)."""

    def end_phase(self, kind: str, key: object) -> None:
        """The save or restore ``key`` ended."""

    def checkpoint_name(self, step: int) -> str:
        """``step-<n>-<run>-<launch>-r<restart>`` (``step-<n>-<run>-r<restart>`` without a launch): the same on
        every rank of a worker group, and new in a job launched again with the same rdzv id, which reaches the same
        steps at the same restart counts again."""
        t = self.launch_tag()
        return "step-%d-%s-%sr%d" % (int(step), safe_name(self.config.run_id, "none"), t + "-" if t else "",
                                     self.incarnation())


class NoopAgent(AgentBase):
    """What :func:`lifeline_agent.init` gives when Lifeline is not configured (no LIFELINE_URL or LIFELINE_JOB):
    every method works and does nothing; queries answer their defaults."""

    _warned = False

    def __init__(self, config: Config | None = None, warn: bool = True) -> None:
        AgentBase.__init__(self, config or Config.from_env())
        self.events = EventFactory(self.config.event_source, self.config.job or "none/none")
        self._loss: Any = None
        self._step = 0
        self._loss_at = -float("inf")
        if warn and not NoopAgent._warned:
            NoopAgent._warned = True
            missing = "LIFELINE_URL" if not self.config.url else "LIFELINE_JOB"
            LOG.warning("lifeline: %s is not set; the Lifeline agent is off (training is not affected)", missing)

    def step(self, step: int, samples: float | None = None, tokens: float | None = None,
             busy: float | None = None, loss: Any = None) -> Task | None:
        if loss is not None:
            # Without Lifeline the checkpoint helpers still judge saves by the loss: one sample per progress
            # interval, as the enabled agent reports them.
            self._loss, self._step = loss, step
            now = time.monotonic()
            if now - self._loss_at >= self.config.progress_interval:
                self._loss_at = now
                v = loss_from_wire(loss_wire(loss))
                if v is not None:
                    self.losses.add(v)
        return None

    def current_loss(self) -> float | None:
        return None if self._loss is None else loss_from_wire(loss_wire(self._loss))

    def current_step(self) -> int:
        return self._step

    def complete(self, task: Task, ok: bool = True, detail: str | None = None, checkpoint_id: str | None = None,
                 restored_step: int | None = None) -> None:
        return None

    def run(self, task: Task, save: SaveFn | None = None, restore: RestoreFn | None = None) -> Any:
        return None

    def emit(self, event: Event) -> None:
        return None

    def phase(self, name: str) -> NoPhase:
        return NoPhase(name)

    def note_checkpoint(self, checkpoint_id: str, step: int, ok: bool = True) -> None:
        return None

    def note_saving(self, checkpoint_id: str, step: int) -> None:
        return None

    def note_restore(self, checkpoint_id: str, step: int) -> int | None:
        return None

    def checkpoint_requested(self) -> datetime.datetime | None:
        return None

    def should_exit(self) -> bool:
        return False

    def holding(self) -> bool:
        return False

    def checkpoint_interval(self) -> float | None:
        return self.config.checkpoint_interval

    def restore_request(self) -> tuple[str, str | None] | None:
        return None

    def rescale_notice(self) -> dict[str, Any] | None:
        return None

    def on(self, what: str, callback: CallbackT) -> CallbackT:
        return callback

    def set_restore_check(self, fn: RestoreCheck) -> None:
        return None

    def set_storage_check(self, fn: StorageCheck) -> None:
        return None

    def task_storage(self) -> str | None:
        return None

    def report_failure(self, error: str | None = None, exit_code: int | None = None) -> None:
        return None

    def flush(self, timeout: float | None = None) -> bool:
        return True

    def close(self, timeout: float | None = None) -> bool:
        return True

    def stats(self) -> dict[str, Any]:
        return {"enabled": False}
