"""The trainer agent: events out, commands in, agreed checkpoint steps, holds, signals.

One per process (see :func:`lifeline_agent.init`). The training thread calls :meth:`Agent.step` once per step:
that call stores the step, compares it with one integer and returns ``None`` unless this step is where every rank
has to save (or restore); all network and store work runs in the agent's daemon threads.
"""

import atexit
import collections
import importlib
import sys
import threading
import time
import traceback

from . import coord as _coord
from ._util import LOG, parse_rfc3339, rfc3339, safe_name, utc_now
from .commands import CommandChannel
from .config import Config
from .events import EventFactory, is_telemetry
from .sender import LIFECYCLE, TELEMETRY, BatchSender, encode_cloudevents
from .signals import Signals, die_with_parent
from .transport import Backoff, Http

INF = float("inf")
STEP_TIMES_KEPT = 4096                  # step durations a report summarises at most (the newest)
_perf = time.perf_counter


def _median(sorted_values):
    n = len(sorted_values)
    mid = n // 2
    return sorted_values[mid] if n % 2 else (sorted_values[mid - 1] + sorted_values[mid]) / 2.0
CLOUDEVENTS_BATCH = "application/cloudevents-batch+json"


class PeerLostError(RuntimeError):
    """A peer rank went away while this rank was holding after prepare_exit. Let it propagate: torchrun then
    restarts the surviving workers, which rendezvous at the smaller world size and resume from the checkpoint
    saved before the hold, losing no step."""


class Task(object):
    """What the training loop has to do at this step, returned by :meth:`Agent.step`.

    ``kind`` is ``"save"`` (save a checkpoint of this step, reason ``periodic``, ``command``, ``prepare_exit`` or
    ``signal``) or ``"restore"`` (load ``checkpoint_id``). Every rank gets the same task at the same step. Finish it
    with :meth:`Agent.complete` (or let :meth:`Agent.run` do both): that acknowledges the commands behind it, and
    then holds (``hold``) or ends the process (``exit``, after a signal) when that is what was asked.
    """

    __slots__ = ("kind", "reason", "step", "hold", "exit", "deadline", "checkpoint_id", "uri", "plan", "storage")

    def __init__(self, plan, step, exit_after=False):
        self.plan = plan
        self.kind = plan.kind
        self.reason = plan.reason
        self.step = step
        self.hold = plan.hold and not exit_after
        self.exit = exit_after
        self.deadline = parse_rfc3339(plan.deadline) if plan.deadline else None
        self.checkpoint_id = plan.checkpoint_id
        self.uri = plan.uri
        self.storage = getattr(plan, "storage", None)     # "durable": the save must outlive the loss of a node

    def __repr__(self):
        return "Task(%s %s at step %s%s%s)" % (self.kind, self.reason, self.step, ", hold" if self.hold else "",
                                              ", exit" if self.exit else "")


class _Base(object):
    """The API both agents share."""

    enabled = False

    def __init__(self, config):
        self.config = config

    @property
    def rank(self):
        return self.config.rank

    @property
    def world_size(self):
        return self.config.world_size

    @property
    def is_rank0(self):
        return self.config.rank == 0

    @property
    def run_key(self):
        return self.config.run_key

    def incarnation(self):
        """The restart count that names this worker group's checkpoints: global rank 0's (each torchrun agent
        counts its own restarts; the ranks learn rank 0's at the first step), else this process's own."""
        coord = getattr(self, "coordinator", None)
        g = coord.group_restart() if coord is not None else None
        return self.config.restart_count if g is None else g

    def launch_tag(self):
        """The launch that names this worker group's checkpoints (8 hex digits, or None): global rank 0's, learned
        with its restart count, else this process's own."""
        coord = getattr(self, "coordinator", None)
        if coord is not None and coord.group_launch_known():
            return coord.group_launch()
        return self.config.launch_tag

    def checkpoint_name(self, step):
        """``step-<n>-<run>-<launch>-r<restart>`` (``step-<n>-<run>-r<restart>`` without a launch): the same on
        every rank of a worker group, and new in a job launched again with the same rdzv id, which reaches the same
        steps at the same restart counts again."""
        t = self.launch_tag()
        return "step-%d-%s-%sr%d" % (int(step), safe_name(self.config.run_id, "none"), t + "-" if t else "",
                                     self.incarnation())


class NoopAgent(_Base):
    """What :func:`lifeline_agent.init` gives when Lifeline is not configured (no LIFELINE_URL or LIFELINE_JOB):
    every method works and does nothing; queries answer their defaults."""

    _warned = False

    def __init__(self, config=None, warn=True):
        _Base.__init__(self, config or Config.from_env())
        self.events = EventFactory(self.config.event_source, self.config.job or "none/none")
        if warn and not NoopAgent._warned:
            NoopAgent._warned = True
            missing = "LIFELINE_URL" if not self.config.url else "LIFELINE_JOB"
            LOG.warning("lifeline: %s is not set; the Lifeline agent is off (training is not affected)", missing)

    def step(self, step, samples=None, tokens=None, busy=None):
        return None

    def complete(self, task, ok=True, detail=None, checkpoint_id=None, restored_step=None):
        return None

    def run(self, task, save=None, restore=None):
        return None

    def emit(self, event):
        return None

    def note_checkpoint(self, checkpoint_id, step, ok=True):
        return None

    def note_saving(self, checkpoint_id, step):
        return None

    def note_restore(self, checkpoint_id, step):
        return None

    def checkpoint_requested(self):
        return None

    def should_exit(self):
        return False

    def holding(self):
        return False

    def checkpoint_interval(self):
        return self.config.checkpoint_interval

    def restore_request(self):
        return None

    def rescale_notice(self):
        return None

    def on(self, what, callback):
        return callback

    def set_restore_check(self, fn):
        return None

    def set_storage_check(self, fn):
        return None

    def task_storage(self):
        return None

    def report_failure(self, error=None, exit_code=None):
        return None

    def flush(self, timeout=None):
        return True

    def close(self, timeout=None):
        return True

    def stats(self):
        return {"enabled": False}


class Agent(_Base):
    """The agent of one worker process."""

    enabled = True

    def __init__(self, config, http=None, install_signals=True, start=True, store=None):
        _Base.__init__(self, config)
        c = config
        self.events = EventFactory(c.event_source, c.job)
        self.http = http or Http(c.url, c.read_token, timeout=c.http_timeout, ca_file=c.ca_file,
                                 insecure=c.insecure)
        # training-thread state, read by the agent's threads (plain attributes: atomic under the GIL)
        self._step = 0
        self._samples = 0
        self._tokens = 0
        self._attention = INF
        self._sig = False                     # set by the signal handler; checked first on every step
        # agent state
        self._lock = threading.RLock()
        self._attn = {}
        self._interval = c.checkpoint_interval
        self._last_save = (time.monotonic(), None)   # (monotonic time, step) of the newest checkpoint
        self._saving = None
        self._restores = 0
        self._restore_req = None
        self._rescale = None
        self._hold = None                     # (step, checkpoint id) while holding
        self._hold_until = None               # epoch seconds
        self._exit_wanted = False
        self._signal = None                   # (signum, monotonic, epoch) of the first signal
        self._signal_noticed = False
        self._signal_done = threading.Event()
        self._callbacks = collections.defaultdict(list)
        self._restore_check = None
        self._storage_check = None
        self._task = None                     # the task being carried out (between step() and complete())
        self._last_checkpoint = None
        self._closed = False
        self._progress_at = None
        self._progress_last = None            # (monotonic, step, samples, tokens)
        # step durations since the last trainer.step_times (bounded; swapped whole by the sender thread)
        self._times_on = c.step_times_interval > 0
        self._step_t = None
        self._durations = collections.deque(maxlen=STEP_TIMES_KEPT)
        self._busy = collections.deque(maxlen=STEP_TIMES_KEPT)
        self._times_at = time.monotonic()
        self._stats = collections.Counter()

        self.sender = BatchSender(self.http, "/api/v1/events", CLOUDEVENTS_BATCH, encode_cloudevents, "events",
                                  capacity=c.buffer_events, batch=c.batch_events, flush_interval=c.flush_interval,
                                  backoff=Backoff(cap=c.max_backoff),
                                  before_batch=self._tick)
        self.commands = None
        if self.is_rank0 and c.commands:
            self.commands = CommandChannel(self.http, c.namespace, c.name, self._on_command, wait=c.command_wait,
                                           key=c.agent_key)
        self.coordinator = self._make_coordinator(store)
        self.signals = None
        if install_signals and c.signals:
            self.signals = Signals(c.signals, self._on_signal).install()
            if c.exit_with_agent and "SIGTERM" in c.signals:
                die_with_parent()
        self._prev_excepthook = None
        if c.exception_hook:
            self._prev_excepthook = sys.excepthook
            sys.excepthook = self._excepthook
        self._watcher = None
        if start:
            self.start()
        atexit.register(self.close)

    # ------------------------------------------------------------------ setup
    def _make_coordinator(self, store):
        c = self.config
        if c.world_size <= 1:
            return _coord.LocalCoordinator(self)
        if store is None and (not c.master_addr or not c.master_port):
            return _coord.UnavailableCoordinator(self, "MASTER_ADDR/MASTER_PORT are not set (not run by torchrun?)")
        if store is None:
            try:
                importlib.import_module("torch.distributed")
            except Exception as e:  # noqa: BLE001
                return _coord.UnavailableCoordinator(self, "torch.distributed is not available (%s)" % e)
        coordinator = _coord.StoreCoordinator(self, c.master_addr, c.master_port,
                                              _coord.StoreCoordinator.key_base(c.run_id), c.world_size, c.rank,
                                              poll=c.coord_poll, lead_seconds=c.agree_lead,
                                              agree_timeout=c.agree_timeout, store=store)
        self._set_attention("establish", 0)     # the first step agrees the key generation
        return coordinator

    def start(self):
        self.sender.start()
        if self.commands is not None:
            self.commands.start()
        self.coordinator.start()
        if self.signals is not None and self.signals.installed and self._watcher is None:
            self._watcher = threading.Thread(target=self._watch_signals, name="lifeline-signals", daemon=True)
            self._watcher.start()
        return self

    # ------------------------------------------------------------------ hot path
    def step(self, step, samples=None, tokens=None, busy=None):
        """Call once per training step, after the step, with the number of steps done so far. ``samples`` and
        ``tokens``: how many this step processed across all ranks (for the throughput in trainer.progress).
        ``busy``: seconds this rank worked on the step before it waited for its peers (for example up to the
        backward pass, where data parallel training waits for the slowest rank); it is what finds a straggler,
        since the wall time of a synchronous step is the same on every rank.
        Returns None, or a :class:`Task` when every rank has to save (or restore) at this step."""
        self._step = step
        if self._times_on:
            now = _perf()
            if self._step_t is not None:
                self._durations.append(now - self._step_t)
            self._step_t = now
            if busy is not None:
                self._busy.append(busy)
        if samples is not None:
            self._samples += samples
        if tokens is not None:
            self._tokens += tokens
        if self._sig or step >= self._attention:
            return self._slow(step)
        return None

    def _set_attention(self, source, value):
        with self._lock:
            self._attn[source] = value
            self._attention = min(self._attn.values())

    def _slow(self, step):
        if self._sig:
            self._notice_signal()
        plan = self.coordinator.due(step)
        if plan is not None:
            self._task = Task(plan, step, exit_after=self._exits_after(plan))
            return self._task
        if self._signal is not None and self.config.signal_exit and self._signal_abandoned():
            self._exit_after_signal()
        return None

    def _exits_after(self, plan):
        """After a signal, this rank ends after the emergency save (or any save the other ranks hold after);
        an unrelated save already planned is done first, and the process goes on to the emergency one."""
        if self._signal is None or not self.config.signal_exit:
            return False
        return plan.kind == "save" and (plan.reason == "signal" or plan.hold or self.coordinator.kind != "store")

    # ------------------------------------------------------------------ finishing a task
    def run(self, task, save=None, restore=None):
        """Carries out ``task``: ``save()`` (returns the checkpoint id) or ``restore(checkpoint_id, uri)`` (returns
        the step it restored), then :meth:`complete`. An exception from them fails the task and is re-raised after
        the acknowledgements. Returns what the function returned."""
        fn = save if task.kind == "save" else restore
        if fn is None:
            self.complete(task, ok=False, detail="the training loop has no %s function" % task.kind)
            return None
        try:
            result = fn() if task.kind == "save" else fn(task.checkpoint_id, task.uri)
        except Exception as e:  # noqa: BLE001 - reported, then re-raised
            self.complete(task, ok=False, detail="%s: %s" % (type(e).__name__, e))
            raise
        if task.kind == "save":
            self.complete(task, ok=True, checkpoint_id=getattr(result, "checkpoint_id", result))
        else:
            self.complete(task, ok=True, restored_step=getattr(result, "step", result))
        return result

    def complete(self, task, ok=True, detail=None, checkpoint_id=None, restored_step=None):
        """Marks ``task`` done (every rank calls it): acknowledges its commands (rank 0), then holds (prepare_exit)
        or ends the process (after a signal). Raises :class:`PeerLostError` when a peer leaves during a hold."""
        plan = task.plan
        self._task = None
        if task.kind == "restore":
            self._restore_req = None
            if ok and restored_step is not None:
                self._step = restored_step
        if detail is None:
            if task.kind == "save":
                detail = ("checkpoint %s saved at step %d" % (checkpoint_id, task.step) if ok and checkpoint_id
                          else "checkpoint at step %d %s" % (task.step, "saved" if ok else "failed"))
                if ok and task.hold:
                    detail += "; holding until stopped"
            else:
                detail = ("restored %s, training resumes at step %s" % (task.checkpoint_id, restored_step) if ok
                          else "restore from %s failed" % task.checkpoint_id)
        if self.commands is not None:
            for cid in plan.commands:
                self.commands.ack(cid, "done" if ok else "failed", detail)
        self.coordinator.finished(plan)
        self._stats["tasks_" + ("done" if ok else "failed")] += 1
        if task.exit:
            self._exit_after_signal()
            return
        if task.hold and ok:
            self._do_hold(task, checkpoint_id)

    # ------------------------------------------------------------------ events
    def emit(self, event):
        """Queues a CloudEvent (a dict, see :attr:`events`) for delivery; never blocks."""
        self.sender.add(event, TELEMETRY if is_telemetry(event) else LIFECYCLE)

    def note_checkpoint(self, checkpoint_id, step, ok=True):
        """Told by the checkpoint helpers of every save; the interval clock starts again on a good one."""
        if ok:
            self._last_save = (time.monotonic(), step)
            self._last_checkpoint = checkpoint_id
        self._saving = None

    def note_saving(self, checkpoint_id, step):
        self._saving = (checkpoint_id, step, time.monotonic())

    def note_restore(self, checkpoint_id, step):
        """Told by the checkpoint helpers of a restore: sends trainer.restored (rank 0) and returns its seq."""
        self._step = step
        self._last_save = (time.monotonic(), step)
        seq = self._restores
        self._restores += 1
        if self.is_rank0:
            self.emit(self.events.restored(self.run_key, checkpoint_id, step, run_id=self.config.run_id, seq=seq))
        return seq

    def report_failure(self, error=None, exit_code=None):
        """Sends trainer.worker_failed for this rank (any rank may) and flushes briefly."""
        c = self.config
        self.emit(self.events.worker_failed(self.run_key, c.rank, run_id=c.run_id, node=c.node,
                                            exit_code=exit_code, error=error))
        self.flush(min(3.0, c.flush_timeout))

    def _tick(self):
        """In the sender's thread before each batch: every rank's step times; rank 0's progress and interval-based
        saves."""
        self._step_times_tick()
        if self.is_rank0:
            self._progress_tick()
            self._interval_tick()

    def _step_times_tick(self, force=False):
        now = time.monotonic()
        if not self._times_on or (not force and now - self._times_at < self.config.step_times_interval):
            return
        durations, busy = self._durations, self._busy
        if not durations:
            return
        # Swapped whole: the training thread appends to the new deques; at worst one step lands in the old one late.
        self._durations = collections.deque(maxlen=STEP_TIMES_KEPT)
        self._busy = collections.deque(maxlen=STEP_TIMES_KEPT)
        self._times_at = now
        d = sorted(durations)
        b = sorted(busy)
        c = self.config
        self.emit(self.events.step_times(self.run_key, c.rank, len(d), self._step, _median(d), d[-1],
                                         _median(b) if b else None, local_rank=c.local_rank, node=c.node))

    def _progress_tick(self):
        now = time.monotonic()
        step = self._step
        if self._progress_at is not None and now - self._progress_at < self.config.progress_interval:
            return
        last = self._progress_last
        if last is not None and last[1] == step:
            return
        sps = tps = None
        if last is not None and now > last[0]:
            dt = now - last[0]
            if self._samples or last[2]:
                sps = (self._samples - last[2]) / dt
            if self._tokens or last[3]:
                tps = (self._tokens - last[3]) / dt
        self._progress_at = now
        self._progress_last = (now, step, self._samples, self._tokens)
        if step is None or step < 0:
            return
        self.emit(self.events.progress(self.run_key, step, sps, tps))

    # ------------------------------------------------------------------ commands (rank 0, polling thread)
    def _on_command(self, cmd):
        ack = self.commands.ack
        kind = cmd.kind
        self._stats["commands"] += 1
        holding = self._hold
        if kind in ("checkpoint_now", "prepare_exit", "rescale_notice"):
            deadline = cmd.get("deadline")
            if holding is not None:
                if kind == "checkpoint_now":
                    ack(cmd.id, "rejected", "holding at step %d after prepare_exit: no step was taken since "
                                            "checkpoint %s" % (holding[0], holding[1]))
                    return
                if kind == "prepare_exit":
                    dl = parse_rfc3339(deadline)
                    if dl is not None:
                        self._hold_until = max(self._hold_until or 0, dl.timestamp() + self.config.hold_grace)
                    self._exit_wanted = True
                ack(cmd.id, "accepted")
                ack(cmd.id, "done", "holding at step %d; checkpoint %s is current" % (holding[0], holding[1]))
                return
            storage = "durable" if kind != "rescale_notice" and cmd.get("storage") == "durable" else None
            note = ""
            if storage:
                can, why = self._durable_save_possible()
                if not can and kind == "checkpoint_now":
                    # A save here would not outlive the node Lifeline is worried about: say so rather than save in
                    # vain.
                    ack(cmd.id, "rejected", why)
                    return
                if not can:
                    # prepare_exit: the job is about to stop. A save and a hold still beat neither; Lifeline counts
                    # what the save survives from the checkpoint's own report.
                    note = " (%s)" % why
            if kind == "rescale_notice":
                self._rescale = {"worldSize": cmd.get("worldSize"), "workers": cmd.get("workers")}
                self._fire("rescale", dict(self._rescale))
            hold = kind == "prepare_exit"
            reason = "prepare_exit" if hold else "command"
            why = self.coordinator.request(_coord.Wish("save", reason, hold, cmd.id, deadline, storage=storage))
            if why:
                ack(cmd.id, "rejected", why)
                return
            if hold:
                self._exit_wanted = True
            ack(cmd.id, "accepted", "saving at an agreed step%s%s" % ("; then holding" if hold else "", note))
            self._fire("exit" if hold else "checkpoint", parse_rfc3339(deadline))
        elif kind == "restore_from":
            cid, uri = cmd.get("checkpointId"), cmd.get("uri")
            if not cid:
                ack(cmd.id, "rejected", "restore_from without checkpointId")
                return
            if holding is not None:
                ack(cmd.id, "rejected", "holding after prepare_exit; restore when the job restarts")
                return
            check = self._restore_check
            if check is None:
                ack(cmd.id, "rejected", "this trainer cannot restore on command (no checkpoint directory attached)")
                return
            try:
                can, why = check(cid, uri)
            except Exception as e:  # noqa: BLE001
                can, why = False, "checking %s failed: %s" % (cid, e)
            if not can:
                ack(cmd.id, "rejected", why or "checkpoint %s cannot be restored" % cid)
                return
            why = self.coordinator.request(_coord.Wish("restore", "restore", False, cmd.id, cmd.get("deadline"),
                                                       cid, uri))
            if why:
                ack(cmd.id, "rejected", why)
                return
            self._restore_req = (cid, uri)
            ack(cmd.id, "accepted", "restoring %s at an agreed step" % cid)
            self._fire("restore", (cid, uri))
        elif kind == "set_checkpoint_interval":
            raw = cmd.get("intervalSeconds")
            try:
                seconds = float(raw)
                if not seconds > 0:
                    raise ValueError
            except (TypeError, ValueError):
                ack(cmd.id, "rejected", "intervalSeconds must be a positive number of seconds, got %r" % (raw,))
                return
            self._interval = seconds
            ack(cmd.id, "accepted")
            ack(cmd.id, "done", "checkpoint interval now %g s" % seconds)
            self._fire("interval", seconds)
            self.coordinator._poke()
        else:
            ack(cmd.id, "rejected", "unknown command kind %r" % (cmd.type or kind))

    def _interval_tick(self):
        """Rank 0: a time-based save when the interval has passed since the newest checkpoint."""
        interval = self._interval
        if not interval or self._hold is not None or self._signal is not None:
            return
        if time.monotonic() - self._last_save[0] < interval or self._last_save[1] == self._step:
            return
        for w in self.coordinator.pending_requests():
            if getattr(w, "kind", None) == "save":
                return
        self._last_save = (time.monotonic(), self._last_save[1])
        self.coordinator.request(_coord.Wish("save", "periodic", False, None, None))

    # ------------------------------------------------------------------ queries
    def checkpoint_requested(self):
        """The deadline (an aware datetime) of a pending commanded checkpoint, the current time for one without a
        deadline (a signal), or None."""
        best = None
        for w in self.coordinator.pending_requests():
            if getattr(w, "kind", "save") != "save" or getattr(w, "reason", "") == "periodic":
                continue
            d = parse_rfc3339(w.deadline) if w.deadline else utc_now()
            if best is None or (d is not None and d < best):
                best = d
        return best

    def should_exit(self):
        """True once the job was asked to stop: prepare_exit, or a termination signal."""
        return self._exit_wanted or self._signal is not None

    def holding(self):
        return self._hold is not None

    def checkpoint_interval(self):
        """Seconds between agent-planned checkpoints: set by Lifeline (set_checkpoint_interval) or
        LIFELINE_CHECKPOINT_INTERVAL; None when neither."""
        return self._interval

    def restore_request(self):
        """(checkpoint id, uri) of a restore Lifeline asked for and not yet done, else None."""
        return self._restore_req

    def rescale_notice(self):
        """The last rescale_notice's data ({"worldSize": ..., "workers": ...}) or None."""
        return self._rescale

    def on(self, what, callback):
        """Registers ``callback`` for ``"checkpoint"`` (deadline), ``"exit"`` (deadline), ``"restore"``
        ((id, uri)), ``"interval"`` (seconds), ``"rescale"`` (dict), ``"hold"`` (step) or ``"resume"`` (step).
        Called in the agent's command thread, except hold/resume (training thread): keep them short."""
        self._callbacks[what].append(callback)
        return callback

    def set_restore_check(self, fn):
        """``fn(checkpoint_id, uri) -> (bool, why)``: whether restore_from can be done (the checkpoint helpers
        install one)."""
        self._restore_check = fn

    def set_storage_check(self, fn):
        """``fn() -> (bool, why)``: whether a save made now outlives the loss of any one node (the checkpoint helpers
        install one: a directory declared durable, or a copy on every node of a job on several)."""
        self._storage_check = fn

    def task_storage(self):
        """``"durable"`` while carrying out a save Lifeline asked to outlive the loss of a node, else None."""
        t = self._task
        return t.storage if t is not None else None

    def _durable_save_possible(self):
        fn = self._storage_check
        if fn is not None:
            try:
                return fn()
            except Exception as e:  # noqa: BLE001
                return False, "checking the checkpoint storage failed: %s" % e
        if self.config.checkpoints_durable:
            return True, None
        return False, ("no durable checkpoint storage: this trainer did not say that its saves outlive a node (declare "
                       "CheckpointManager(directory, durable=True), or LIFELINE_CHECKPOINTS_DURABLE=1, when they go to "
                       "object storage or a shared file system)")

    def _fire(self, what, arg):
        for cb in list(self._callbacks.get(what, ())):
            try:
                cb(arg)
            except Exception:  # noqa: BLE001
                LOG.exception("lifeline: %s callback failed", what)

    # ------------------------------------------------------------------ holding
    def _do_hold(self, task, checkpoint_id):
        c = self.config
        step = task.step
        dl = task.deadline
        if task.reason == "signal" or dl is None:
            until = time.time() + c.shutdown_timeout + c.hold_grace
        else:
            until = dl.timestamp() + c.hold_grace
        with self._lock:
            self._hold_until = max(self._hold_until or 0, until)
            self._hold = (step, checkpoint_id)
        LOG.warning("lifeline: holding at step %d after %s (checkpoint %s) until stopped or %s", step, task.reason,
                    checkpoint_id, rfc3339(self._hold_until))
        self._fire("hold", step)
        try:
            self._hold_loop(step)
        finally:
            with self._lock:
                self._hold = None
                self._hold_until = None
        self._exit_wanted = False
        LOG.warning("lifeline: resuming at step %d: the hold passed its deadline and grace", step)
        self._fire("resume", step)

    def _collective(self):
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

    def _hold_loop(self, step):
        c = self.config
        coll = self._collective()
        beat = 0
        while True:
            if self._sig and self.config.signal_exit:
                self._notice_signal()
                self._exit_after_signal()
            wants_resume = 1 if time.time() >= (self._hold_until or 0) else 0
            if coll is None:
                if wants_resume:
                    return
                self._sleep_interruptibly(min(0.1, c.hold_heartbeat))
                continue
            torch, dist, device = coll
            t = torch.tensor([wants_resume], dtype=torch.int64, device=device)
            try:
                work = dist.all_reduce(t, op=dist.ReduceOp.MIN, async_op=True)
                started = time.monotonic()
                while not work.is_completed():
                    if self._sig and self.config.signal_exit:
                        self._notice_signal()
                        self._exit_after_signal()
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
                self._stats["peer_lost"] += 1
                raise PeerLostError("a peer left while holding at step %d: %s" % (step, str(e).splitlines()[0]))
            beat += 1
            if int(t.item()) == 1:
                return
            self._sleep_interruptibly(c.hold_heartbeat)

    def _sleep_interruptibly(self, seconds):
        end = time.monotonic() + seconds
        while not (self._sig and self.config.signal_exit):
            left = end - time.monotonic()
            if left <= 0:
                return
            time.sleep(min(left, 0.05))

    # ------------------------------------------------------------------ signals
    def _on_signal(self, signum, frame):
        # Runs between two bytecodes of the training thread: plain attribute writes only.
        if self._signal is None:
            self._signal = (signum, time.monotonic(), time.time())
        self._sig = True

    def _notice_signal(self):
        """First look at a signal outside the handler (training thread or the watcher): tells the coordinator."""
        with self._lock:
            if self._signal_noticed or self._signal is None:
                return
            self._signal_noticed = True
        signum, _, _ = self._signal
        self._exit_wanted = True
        self._stats["signals"] += 1
        if self._hold is not None:
            LOG.warning("lifeline: signal %d while holding at step %s: checkpoint %s is current; exiting", signum,
                        self._hold[0], self._hold[1])
            return
        LOG.warning("lifeline: signal %d at step %s: emergency checkpoint at the next agreed step, then exit "
                    "(window %.0f s)", signum, self._step, self.config.shutdown_timeout)
        self.coordinator.signal()

    def _window_left(self):
        if self._signal is None:
            return INF
        return self._signal[1] + self.config.shutdown_timeout - time.monotonic()

    def _signal_abandoned(self):
        """No agreed step came in time for the emergency checkpoint (rank 0 gone or stuck)."""
        if self._signal is None or self.coordinator.pending_requests():
            return False
        waited = time.monotonic() - self._signal[1]
        limit = min(10.0, max(1.0, self.config.shutdown_timeout / 3.0))
        if waited < limit:
            return False
        if not self._signal_done.is_set():
            cid = self.checkpoint_name(self._step)
            self.emit(self.events.checkpoint_failed(cid, self._step, "signal %d at step %d: no step was agreed with "
                                                    "rank 0 within %.0f s; no checkpoint taken"
                                                    % (self._signal[0], self._step, limit)))
            self._signal_done.set()
        return True

    def _watch_signals(self):
        """Notices a signal even while the training thread is busy, and reports a checkpoint that cannot finish
        inside the SIGTERM -> SIGKILL window."""
        while not self._closed:
            if not self._sig or self._signal_done.is_set():
                time.sleep(0.1)
                continue
            self._notice_signal()
            margin = min(3.0, max(0.5, self.config.shutdown_timeout * 0.1))
            while not self._signal_done.is_set() and self._window_left() > margin:
                self._signal_done.wait(0.1)
            if not self._signal_done.is_set() and (self.is_rank0 or self._saving is not None):
                saving = self._saving
                step = saving[1] if saving else self._step
                cid = saving[0] if saving else self.checkpoint_name(step)
                what = "the save was still running" if saving else "the training loop did not reach the agreed step"
                err = ("signal %d: the %.0f s shutdown window ran out before the checkpoint completed (%s); torchrun "
                       "kills the worker now" % (self._signal[0], self.config.shutdown_timeout, what))
                LOG.error("lifeline: %s", err)
                self.emit(self.events.checkpoint_failed(cid, step, err))
                self._signal_done.set()
                self.sender.flush(max(0.2, self._window_left() - 0.2))

    def _exit_after_signal(self):
        """After the emergency checkpoint (or when there is nothing to save): flush, then hand the signal on."""
        signum = self._signal[0] if self._signal else 15
        self._signal_done.set()
        budget = max(0.2, min(self.config.flush_timeout, self._window_left() - 0.5))
        self.flush(budget)
        LOG.warning("lifeline: exiting on signal %d at step %s", signum, self._step)
        if self.signals is not None:
            self.signals.chain(signum)
        else:
            raise SystemExit(128 + signum)
        # The signal was ignored before: training goes on.
        self._sig = False
        self._signal = None
        self._signal_noticed = False
        self._exit_wanted = False
        self._signal_done.clear()

    # ------------------------------------------------------------------ crash reports
    def _excepthook(self, etype, value, tb):
        try:
            if not issubclass(etype, (KeyboardInterrupt, SystemExit, PeerLostError)):
                text = "".join(traceback.format_exception_only(etype, value)).strip()
                self.report_failure(error=text, exit_code=1)
        except Exception:  # noqa: BLE001
            pass
        hook = self._prev_excepthook or sys.__excepthook__
        hook(etype, value, tb)

    # ------------------------------------------------------------------ shutdown
    def flush(self, timeout=None):
        """Delivers what is queued (events, acknowledgements) within ``timeout`` seconds."""
        timeout = self.config.flush_timeout if timeout is None else timeout
        end = time.monotonic() + timeout
        ok = True
        if self.commands is not None:
            ok = self.commands.flush(max(0.0, end - time.monotonic())) and ok
        ok = self.sender.flush(max(0.0, end - time.monotonic())) and ok
        return ok

    def close(self, timeout=None):
        if self._closed:
            return True
        ok = self.flush(timeout)
        self._closed = True
        self.sender.close()
        if self.commands is not None:
            self.commands.stop()
            self.commands.release()
        self.coordinator.stop()
        return ok

    def stats(self):
        s = {"enabled": True, "rank": self.config.rank, "step": self._step,
             "coordination": self.coordinator.kind, "events": self.sender.stats()}
        if self.commands is not None:
            s["commands"] = self.commands.stats()
        s.update(self._stats)
        ev = s["events"]
        s["dropped_telemetry"] = ev.get("dropped_telemetry", 0)
        s["dropped_lifecycle"] = ev.get("dropped_lifecycle", 0)
        return s
