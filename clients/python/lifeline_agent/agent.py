"""The trainer agent: events out, commands in, agreed checkpoint steps, holds, signals.

One per process (see :func:`lifeline_agent.init`). The training thread calls :meth:`Agent.step` once per step:
that call stores the step, compares it with one integer and returns ``None`` unless this step is where every rank
has to save (or restore); all network and store work runs in the agent's daemon threads.

:class:`Agent` is the API and wires its parts, one concern each: the state the threads share
(:mod:`~lifeline_agent.state`), the step-time and progress reports (:mod:`~lifeline_agent.reports`), the checkpoints
reported to it and the saves planned by time (:mod:`~lifeline_agent.saves`), the answers to Lifeline's commands
(:mod:`~lifeline_agent.handler`), the hold after prepare_exit (:mod:`~lifeline_agent.holding`) and the emergency
checkpoint after a signal (:mod:`~lifeline_agent.emergency`).
"""

from __future__ import annotations

import atexit
import datetime
import sys
import time
import traceback
from types import TracebackType
from typing import Any, Callable, cast

from . import coord as _coord
from ._util import Callbacks, CallbackT
from .base import AgentBase, NoopAgent, RestoreFn, SaveFn
from .commands import CommandChannel
from .config import Config
from .emergency import EmergencyExit
from .events import Event, EventFactory, is_telemetry
from .handler import CommandHandler, RestoreCheck, StorageCheck
from .holding import Hold, PeerLostError
from .phases import DeclaredPhase, Phases
from .reports import ProgressReport, StepTimes
from .saves import SaveTracker
from .sender import LIFECYCLE, TELEMETRY, BatchSender, encode_cloudevents
from .signals import Signals, die_with_parent
from .stacks import FaultDump, StackReporter
from .state import SharedState
from .task import Task
from .trust import loss_from_wire, loss_wire
from .transport import Backoff, Http

__all__ = ["Agent", "NoopAgent", "PeerLostError", "Task"]

CLOUDEVENTS_BATCH = "application/cloudevents-batch+json"
_perf = time.perf_counter


class Agent(AgentBase):
    """The agent of one worker process."""

    enabled = True
    coordinator: _coord.Coordinator

    def __init__(self, config: Config, http: Http | None = None, install_signals: bool = True, start: bool = True,
                 store: _coord.Store | None = None) -> None:
        AgentBase.__init__(self, config)
        c = config
        if not c.job or (http is None and not c.url):
            raise ValueError("the agent needs Lifeline's URL and its job (LIFELINE_URL, LIFELINE_JOB)")
        self.events = EventFactory(c.event_source, c.job)
        self.phases = Phases()
        self.http = http or Http(c.url or "", c.read_token, timeout=c.http_timeout, ca_file=c.ca_file,
                                 insecure=c.insecure)
        self.state = SharedState()
        self.callbacks = Callbacks()
        self.step_times = StepTimes(self)
        self.progress = ProgressReport(self)
        self.saves = SaveTracker(self, c.checkpoint_interval)
        self.hold = Hold(self)
        self.emergency = EmergencyExit(self)
        self.handler = CommandHandler(self)
        self.stacks = StackReporter(self)
        self.fault_dump: FaultDump | None = None
        self._task: Task | None = None        # the task being carried out (between step() and complete())
        # The worker's first step is reported at once: Lifeline ends an interruption at the first progress after the
        # restart, and a report that waited for the next flush would count up to a flush interval more downtime.
        self._first_step = True
        self._closed = False

        self.sender = BatchSender(self.http, "/api/v1/events", CLOUDEVENTS_BATCH, encode_cloudevents, "events",
                                  capacity=c.buffer_events, batch=c.batch_events, flush_interval=c.flush_interval,
                                  backoff=Backoff(cap=c.max_backoff), before_batch=self._tick)
        self.commands: CommandChannel | None = None
        if self.is_rank0 and c.commands:
            self.commands = CommandChannel(self.http, c.namespace or "", c.name or "", self.handler.handle,
                                           wait=c.command_wait, key=c.agent_key)
        self.coordinator = _coord.for_agent(self, store)
        self.signals: Signals | None = None
        if install_signals and c.signals:
            self.signals = Signals(c.signals, self.emergency.on_signal).install()
            if c.exit_with_agent and "SIGTERM" in c.signals:
                die_with_parent()
        if install_signals and c.stacks_signal and c.stacks_signal not in c.signals:
            self.fault_dump = FaultDump(c.stacks_signal, c.stacks_dir)
        self._prev_excepthook: Callable[[type[BaseException], BaseException, TracebackType | None], Any] | None = None
        if c.exception_hook:
            self._prev_excepthook = sys.excepthook
            sys.excepthook = self._excepthook
        if start:
            self.start()
        atexit.register(self.close)

    def start(self) -> Agent:
        self.sender.start()
        if self.commands is not None:
            self.commands.start()
        self.coordinator.start()
        if self.signals is not None and self.signals.installed:
            self.emergency.start()
        return self

    # ------------------------------------------------------------------ hot path
    def step(self, step: int, samples: float | None = None, tokens: float | None = None,
             busy: float | None = None, loss: Any = None) -> Task | None:
        """Call once per training step, after the step, with the number of steps done so far. ``samples`` and
        ``tokens``: how many this step processed across all ranks (for the throughput in trainer.progress).
        ``busy``: seconds this rank worked on the step before it waited for its peers (for example up to the
        backward pass, where data parallel training waits for the slowest rank); it is what finds a straggler,
        since the wall time of a synchronous step is the same on every rank.
        ``loss``: this step's loss as a Python float (``loss.item()``; NaN and infinities welcome), reported in
        trainer.progress and judging whether a checkpoint saved now is trusted (see :mod:`lifeline_agent.trust`).
        Returns None, or a :class:`Task` when every rank has to save (or restore) at this step."""
        st = self.state
        st.step = step
        if self._first_step:
            self._first_step = False
            if self.is_rank0:
                self.progress.due_now()
                self.sender.wake()
        times = self.step_times
        if times.on:
            now = _perf()
            if times.last is not None:
                times.durations.append(now - times.last)
            else:
                times.first = now
            times.last = now
            if busy is not None:
                times.busy.append(busy)
        else:
            times.last = _perf()        # the stacks' sinceStepSeconds
        if samples is not None:
            st.samples += samples
        if tokens is not None:
            st.tokens += tokens
        if loss is not None:
            st.loss = loss
        if st.signalled or step >= st.attention:
            return self._slow(step)
        return None

    def _slow(self, step: int) -> Task | None:
        e = self.emergency
        if self.state.signalled:
            e.notice()
        plan = self.coordinator.due(step)
        if plan is not None:
            self._task = Task(plan, step, exit_after=e.ends_after(plan))
            return self._task
        if e.signal is not None and self.config.signal_exit and e.abandoned():
            e.exit_now()
        return None

    # ------------------------------------------------------------------ finishing a task
    def run(self, task: Task, save: SaveFn | None = None, restore: RestoreFn | None = None) -> Any:
        """Carries out ``task``: ``save()`` (returns the checkpoint id) or ``restore(checkpoint_id, uri)`` (returns
        the step it restored), then :meth:`complete`. An exception from them fails the task and is re-raised after
        the acknowledgements. Returns what the function returned."""
        fn = save if task.kind == "save" else restore
        if fn is None:
            self.complete(task, ok=False, detail="the training loop has no %s function" % task.kind)
            return None
        phase = "saving" if task.kind == "save" else "restoring"
        self.phases.begin(phase, task)
        try:
            if task.kind == "save":
                result = cast(SaveFn, fn)()
            else:
                # A restore task always names its checkpoint (rank 0 refuses restore_from without one).
                result = cast(RestoreFn, fn)(cast(str, task.checkpoint_id), task.uri)
        except Exception as e:  # noqa: BLE001 - reported, then re-raised
            self.phases.end(phase, task)     # before complete(): it may end the process
            self.complete(task, ok=False, detail="%s: %s" % (type(e).__name__, e))
            raise
        finally:
            self.phases.end(phase, task)
        if task.kind == "save":
            self.complete(task, ok=True, checkpoint_id=getattr(result, "checkpoint_id", result))
        else:
            self.complete(task, ok=True, restored_step=getattr(result, "step", result))
        return result

    def complete(self, task: Task, ok: bool = True, detail: str | None = None, checkpoint_id: str | None = None,
                 restored_step: int | None = None) -> None:
        """Marks ``task`` done (every rank calls it): acknowledges its commands (rank 0), then holds (prepare_exit)
        or ends the process (after a signal). Raises :class:`PeerLostError` when a peer leaves during a hold."""
        plan = task.plan
        self._task = None
        if task.kind == "restore":
            self.handler.restore_request = None
            if ok and restored_step is not None:
                self.state.step = restored_step
        if detail is None:
            detail = _outcome(task, ok, checkpoint_id, restored_step)
        if self.commands is not None:
            for cid in plan.commands:
                self.commands.ack(cid, "done" if ok else "failed", detail)
        self.coordinator.finished(plan)
        self.state.counters["tasks_" + ("done" if ok else "failed")] += 1
        if task.exit:
            self.emergency.exit_now()
            return
        if task.hold and ok:
            self.hold.hold(task, checkpoint_id)

    # ------------------------------------------------------------------ events
    def emit(self, event: Event) -> None:
        """Queues a CloudEvent (a dict, see :attr:`events`) for delivery; never blocks."""
        self.sender.add(event, TELEMETRY if is_telemetry(event) else LIFECYCLE)

    def note_checkpoint(self, checkpoint_id: str, step: int, ok: bool = True) -> None:
        """Told by the checkpoint helpers of every save; the interval clock starts again on a good one."""
        self.saves.note_checkpoint(checkpoint_id, step, ok)

    def note_saving(self, checkpoint_id: str, step: int) -> None:
        self.saves.note_saving(checkpoint_id, step)

    def note_restore(self, checkpoint_id: str, step: int) -> int:
        """Told by the checkpoint helpers of a restore: sends trainer.restored (rank 0) and returns its seq."""
        return self.saves.note_restore(checkpoint_id, step)

    def phase(self, name: str) -> DeclaredPhase:
        """``with agent.phase("evaluation"):``: what this rank does inside the block, in its heartbeat (see
        :mod:`lifeline_agent.phases`), so that Lifeline judges a stall there by that phase. Nestable (the inner one
        wins while it lasts); ``name`` is ``[a-z][a-z0-9_-]{0,31}`` (ValueError otherwise)."""
        return self.phases.declare(name)

    def begin_phase(self, kind: str, key: object) -> None:
        """The checkpoint helpers: a save (``"saving"``) or restore (``"restoring"``) identified by ``key`` began."""
        self.phases.begin(kind, key)

    def end_phase(self, kind: str, key: object) -> None:
        self.phases.end(kind, key)

    def report_failure(self, error: str | None = None, exit_code: int | None = None) -> None:
        """Sends trainer.worker_failed for this rank (any rank may) with the last step it completed, and flushes
        briefly. The step tells Lifeline where the rank failed: its progress reports are seconds apart."""
        c = self.config
        self.emit(self.events.worker_failed(self.run_key, c.rank, run_id=c.run_id, node=c.node,
                                            exit_code=exit_code, error=error, step=self.state.step))
        self.flush(min(3.0, c.flush_timeout))

    def _tick(self) -> None:
        """In the sender's thread before each batch, and at least every flush interval even with nothing to send:
        every rank's step times (its heartbeat); rank 0's progress and interval-based saves."""
        self.step_times.tick()
        # Every rank samples its loss as rank 0 reports it: the window that judges the saves it writes.
        self.progress.tick(emit=self.is_rank0)
        if self.is_rank0:
            self.saves.tick()

    # ------------------------------------------------------------------ queries
    def current_loss(self) -> float | None:
        return None if self.state.loss is None else loss_from_wire(loss_wire(self.state.loss))

    def current_step(self) -> int:
        return self.state.step

    def checkpoint_requested(self) -> datetime.datetime | None:
        """The deadline (an aware datetime) of a pending commanded checkpoint, the current time for one without a
        deadline (a signal), or None."""
        return self.handler.requested_deadline()

    def should_exit(self) -> bool:
        """True once the job was asked to stop: prepare_exit, or a termination signal."""
        return self.state.exit_wanted or self.emergency.signal is not None

    def holding(self) -> bool:
        return self.hold.current is not None

    def checkpoint_interval(self) -> float | None:
        """Seconds between agent-planned checkpoints: set by Lifeline (set_checkpoint_interval) or
        LIFELINE_CHECKPOINT_INTERVAL; None when neither."""
        return self.saves.interval

    def restore_request(self) -> tuple[str, str | None] | None:
        """(checkpoint id, uri) of a restore Lifeline asked for and not yet done, else None."""
        return self.handler.restore_request

    def rescale_notice(self) -> dict[str, Any] | None:
        """The last rescale_notice's data ({"worldSize": ..., "workers": ...}) or None."""
        return self.handler.rescale

    def on(self, what: str, callback: CallbackT) -> CallbackT:
        """Registers ``callback`` for ``"checkpoint"`` (deadline), ``"exit"`` (deadline), ``"restore"``
        ((id, uri)), ``"interval"`` (seconds), ``"rescale"`` (dict), ``"hold"`` (step) or ``"resume"`` (step).
        Called in the agent's command thread, except hold/resume (training thread): keep them short."""
        return self.callbacks.add(what, callback)

    def set_restore_check(self, fn: RestoreCheck) -> None:
        """``fn(checkpoint_id, uri) -> (bool, why)``: whether restore_from can be done (the checkpoint helpers
        install one)."""
        self.handler.restore_check = fn

    def set_storage_check(self, fn: StorageCheck) -> None:
        """``fn() -> (bool, why)``: whether a save made now outlives the loss of any one node (the checkpoint helpers
        install one: a directory declared durable, or a copy on every node of a job on several)."""
        self.handler.storage_check = fn

    def task_storage(self) -> str | None:
        """``"durable"`` while carrying out a save Lifeline asked to outlive the loss of a node, else None."""
        t = self._task
        return t.storage if t is not None else None

    # ------------------------------------------------------------------ crash reports
    def _excepthook(self, etype: type[BaseException], value: BaseException, tb: TracebackType | None) -> None:
        try:
            if not issubclass(etype, (KeyboardInterrupt, SystemExit, PeerLostError)):
                text = "".join(traceback.format_exception_only(etype, value)).strip()
                self.report_failure(error=text, exit_code=1)
        except Exception:  # noqa: BLE001
            pass
        hook = self._prev_excepthook or sys.__excepthook__
        hook(etype, value, tb)

    # ------------------------------------------------------------------ shutdown
    def flush(self, timeout: float | None = None) -> bool:
        """Delivers what is queued (events, acknowledgements) within ``timeout`` seconds."""
        timeout = self.config.flush_timeout if timeout is None else timeout
        end = time.monotonic() + timeout
        ok = True
        if self.commands is not None:
            ok = self.commands.flush(max(0.0, end - time.monotonic())) and ok
        ok = self.sender.flush(max(0.0, end - time.monotonic())) and ok
        return ok

    def close(self, timeout: float | None = None) -> bool:
        if self._closed:
            return True
        ok = self.flush(timeout)
        self._closed = True
        self.emergency.stop()
        self.sender.close()
        if self.commands is not None:
            self.commands.stop()
            self.commands.release()
        self.coordinator.stop()
        if self.fault_dump is not None:
            self.fault_dump.close()
        return ok

    def stats(self) -> dict[str, Any]:
        s: dict[str, Any] = {"enabled": True, "rank": self.config.rank, "step": self.state.step,
                             "coordination": self.coordinator.kind, "events": self.sender.stats()}
        if self.commands is not None:
            s["commands"] = self.commands.stats()
        s.update(self.state.counters)
        ev = s["events"]
        s["dropped_telemetry"] = ev.get("dropped_telemetry", 0)
        s["dropped_lifecycle"] = ev.get("dropped_lifecycle", 0)
        return s


def _outcome(task: Task, ok: bool, checkpoint_id: str | None, restored_step: int | None) -> str:
    """The detail of the acknowledgements of a task's commands."""
    if task.kind == "save":
        detail = ("checkpoint %s saved at step %d" % (checkpoint_id, task.step) if ok and checkpoint_id
                  else "checkpoint at step %d %s" % (task.step, "saved" if ok else "failed"))
        if ok and task.hold:
            detail += "; holding until stopped"
        return detail
    return ("restored %s, training resumes at step %s" % (task.checkpoint_id, restored_step) if ok
            else "restore from %s failed" % task.checkpoint_id)
