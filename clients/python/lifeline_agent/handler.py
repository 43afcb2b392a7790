"""What rank 0 does with each of Lifeline's commands (in the command channel's polling thread): accept or reject it
at once, and turn an accepted one into a wish for an agreed step (see :mod:`lifeline_agent.coord`), or, for the
commands that need no agreed step (capture_stacks, restart_workers), into a broadcast every rank acts on at once
(:meth:`CommandHandler.act`, in one of the agent's threads, whatever the training thread is doing)."""

from __future__ import annotations

import datetime
import os
import sys
import time
from typing import TYPE_CHECKING, Any, Callable, Optional, Tuple

from ._util import LOG, parse_rfc3339, utc_now
from .coord import Wish

if TYPE_CHECKING:
    from .agent import Agent
    from .commands import Command

#: ``fn(checkpoint_id, uri) -> (can, why)``: whether a restore_from can be done.
RestoreCheck = Callable[[str, Optional[str]], Tuple[bool, Optional[str]]]
#: ``fn() -> (can, why)``: whether a save made now outlives the loss of any one node.
StorageCheck = Callable[[], Tuple[bool, Optional[str]]]

_SAVES = ("checkpoint_now", "prepare_exit", "rescale_notice")
#: The exit code of restart_workers unless the command names one: EX_TEMPFAIL, a failure torchrun restarts.
RESTART_EXIT_CODE = 75
#: Seconds a rank spends delivering what it queued before it exits on restart_workers.
RESTART_FLUSH = 5.0


class CommandHandler:
    """Rank 0's answers to commands, and what they leave for the training loop to ask: the restore asked for
    (``restore_request``: checkpoint id and uri) and the last rescale notice (``rescale``)."""

    def __init__(self, agent: Agent) -> None:
        self._agent = agent
        self.restore_request: tuple[str, str | None] | None = None
        self.rescale: dict[str, Any] | None = None
        self.restore_check: RestoreCheck | None = None
        self.storage_check: StorageCheck | None = None
        #: How restart_workers ends the process (tests replace it): at once, from whichever thread, since the
        #: training thread may be blocked where no exception reaches it.
        self.exit: Callable[[int], None] = os._exit
        #: The code of the restart under way, once one is (see :meth:`expect_restart`).
        self._restart_code: int | None = None

    def _ack(self, command_id: str, status: str, detail: str | None = None) -> None:
        channel = self._agent.commands
        if channel is not None:
            channel.ack(command_id, status, detail)

    def handle(self, cmd: Command) -> None:
        """The command channel's handler: answers ``cmd`` through acknowledgements."""
        self._agent.state.counters["commands"] += 1
        kind = cmd.kind
        holding = self._agent.hold.current
        if kind in _SAVES:
            if holding is not None:
                self._while_holding(cmd, holding)
            else:
                self._save(cmd)
        elif kind == "restore_from":
            self._restore(cmd, holding)
        elif kind == "set_checkpoint_interval":
            self._interval(cmd)
        elif kind == "capture_stacks":
            self._capture_stacks(cmd)
        elif kind == "restart_workers":
            self._restart_workers(cmd)
        else:
            self._ack(cmd.id, "rejected", "unknown command kind %r" % (cmd.type or kind))

    def _while_holding(self, cmd: Command, holding: tuple[int, str | None]) -> None:
        """No step was taken since the hold's checkpoint: it answers a new save at once."""
        agent = self._agent
        if cmd.kind == "checkpoint_now":
            self._ack(cmd.id, "rejected", "holding at step %d after prepare_exit: no step was taken since "
                                          "checkpoint %s" % (holding[0], holding[1]))
            return
        if cmd.kind == "prepare_exit":
            dl = parse_rfc3339(cmd.get("deadline"))
            if dl is not None:
                agent.hold.extend(dl.timestamp() + agent.config.hold_grace)
            agent.state.exit_wanted = True
        self._ack(cmd.id, "accepted")
        self._ack(cmd.id, "done", "holding at step %d; checkpoint %s is current" % (holding[0], holding[1]))

    def _save(self, cmd: Command) -> None:
        """checkpoint_now, prepare_exit (save, then hold) and rescale_notice: a save at an agreed step."""
        agent = self._agent
        kind = cmd.kind
        deadline = cmd.get("deadline")
        storage = "durable" if kind != "rescale_notice" and cmd.get("storage") == "durable" else None
        note = ""
        if storage:
            can, why = self.durable_save_possible()
            if not can and kind == "checkpoint_now":
                # A save here would not outlive the node Lifeline is worried about: say so rather than save in vain.
                self._ack(cmd.id, "rejected", why)
                return
            if not can:
                # prepare_exit: the job is about to stop. A save and a hold still beat neither; Lifeline counts what
                # the save survives from the checkpoint's own report.
                note = " (%s)" % why
        if kind == "rescale_notice":
            self.rescale = {"worldSize": cmd.get("worldSize"), "workers": cmd.get("workers")}
            agent.callbacks.fire("rescale", dict(self.rescale))
        hold = kind == "prepare_exit"
        reason = "prepare_exit" if hold else "command"
        refused = agent.coordinator.request(Wish("save", reason, hold, cmd.id, deadline, storage=storage))
        if refused:
            self._ack(cmd.id, "rejected", refused)
            return
        if hold:
            agent.state.exit_wanted = True
        self._ack(cmd.id, "accepted", "saving at an agreed step%s%s" % ("; then holding" if hold else "", note))
        agent.callbacks.fire("exit" if hold else "checkpoint", parse_rfc3339(deadline))

    def _restore(self, cmd: Command, holding: tuple[int, str | None] | None) -> None:
        agent = self._agent
        cid, uri = cmd.get("checkpointId"), cmd.get("uri")
        if not cid:
            self._ack(cmd.id, "rejected", "restore_from without checkpointId")
            return
        if holding is not None:
            self._ack(cmd.id, "rejected", "holding after prepare_exit; restore when the job restarts")
            return
        check = self.restore_check
        if check is None:
            self._ack(cmd.id, "rejected", "this trainer cannot restore on command (no checkpoint directory attached)")
            return
        try:
            can, why = check(cid, uri)
        except Exception as e:  # noqa: BLE001
            can, why = False, "checking %s failed: %s" % (cid, e)
        if not can:
            self._ack(cmd.id, "rejected", why or "checkpoint %s cannot be restored" % cid)
            return
        refused = agent.coordinator.request(Wish("restore", "restore", False, cmd.id, cmd.get("deadline"), cid, uri))
        if refused:
            self._ack(cmd.id, "rejected", refused)
            return
        self.restore_request = (cid, uri)
        self._ack(cmd.id, "accepted", "restoring %s at an agreed step" % cid)
        agent.callbacks.fire("restore", (cid, uri))

    def _interval(self, cmd: Command) -> None:
        agent = self._agent
        raw = cmd.get("intervalSeconds")
        try:
            seconds = float(raw)
            if not seconds > 0:
                raise ValueError
        except (TypeError, ValueError):
            self._ack(cmd.id, "rejected", "intervalSeconds must be a positive number of seconds, got %r" % (raw,))
            return
        agent.saves.interval = seconds
        self._ack(cmd.id, "accepted")
        self._ack(cmd.id, "done", "checkpoint interval now %g s" % seconds)
        agent.callbacks.fire("interval", seconds)
        agent.coordinator.poke()

    def _capture_stacks(self, cmd: Command) -> None:
        request = str(cmd.get("requestId") or cmd.id)
        self._ack(cmd.id, "accepted", "capturing the stacks of every rank")

        def published(note: str) -> None:
            self._ack(cmd.id, "done", "every rank sends its stacks as trainer.stacks (request %s)%s"
                      % (request, "; " + note if note else ""))
        self._agent.coordinator.broadcast({"kind": "capture_stacks", "requestId": request}, published)

    def _restart_workers(self, cmd: Command) -> None:
        raw = cmd.get("exitCode", str(RESTART_EXIT_CODE))
        try:
            code = int(raw)
            if not 1 <= code <= 255:
                raise ValueError
        except (TypeError, ValueError):
            self._ack(cmd.id, "rejected", "exitCode must be 1 to 255 (a failure torchrun restarts), got %r" % (raw,))
            return
        reason = str(cmd.get("reason") or "")
        self._ack(cmd.id, "accepted", "every rank exits with code %d" % code)

        def published(note: str) -> None:
            self._ack(cmd.id, "done", "workers exit with code %d%s" % (code, "; " + note if note else ""))
        self._agent.coordinator.broadcast({"kind": "restart_workers", "exitCode": code, "reason": reason}, published)

    def act(self, message: dict[str, Any]) -> None:
        """Every rank, in an agent thread: carries out a broadcast command (see the module's documentation)."""
        kind = message.get("kind")
        if kind == "capture_stacks":
            try:
                self._agent.stacks.send(str(message.get("requestId") or "unknown"))
            except Exception:  # noqa: BLE001 - one rank's missing stacks must not stop its agent
                LOG.exception("lifeline: capturing the stacks failed")
        elif kind == "restart_workers":
            code = message.get("exitCode")
            self.restart_now(code if isinstance(code, int) and 1 <= code <= 255 else RESTART_EXIT_CODE,
                             str(message.get("reason") or ""))
        else:
            LOG.warning("lifeline: unknown broadcast %r ignored", kind)

    def expect_restart(self, code: int | None) -> None:
        """A restart_workers is under way: the other ranks are leaving, so a collective of the training thread fails
        with them. Such a failure is the restart itself, not this worker's error: an uncaught exception of the main
        thread from now on leaves the agent's thread time to deliver and exit, then ends the worker with ``code`` (not
        Python's 1, which would read as a crash and lose the agreed exit code)."""
        if self._restart_code is not None:
            return
        code = RESTART_EXIT_CODE if code is None else code
        self._restart_code = code

        def hook(etype: type[BaseException], value: BaseException, tb: Any) -> None:
            LOG.warning("lifeline: %s in the training thread while the workers restart; exiting with code %d",
                        etype.__name__, code)
            time.sleep(RESTART_FLUSH + 2.0)
            self.exit(code)
        sys.excepthook = hook

    def restart_now(self, code: int, reason: str) -> None:
        """Ends this worker with ``code`` after delivering what it queued (at most 5 s), so that torchrun restarts the
        worker group and the script resumes from its newest checkpoint."""
        agent = self._agent
        self.expect_restart(code)
        LOG.warning("lifeline: restart_workers%s: this worker exits with code %d so that torchrun restarts the group",
                    " (%s)" % reason if reason else "", code)
        agent.state.counters["restarts_commanded"] += 1
        try:
            agent.flush(RESTART_FLUSH)
            if agent.commands is not None:
                # Given up now, the restarted rank 0's agent claims the commands at once.
                agent.commands.release(timeout=1.0)
        except Exception:  # noqa: BLE001 - exit whatever happens
            LOG.exception("lifeline: flushing before the restart failed")
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except Exception:  # noqa: BLE001
                pass
        self.exit(code)

    def durable_save_possible(self) -> tuple[bool, str | None]:
        """Whether a save made now outlives the loss of any one node, and why not."""
        fn = self.storage_check
        if fn is not None:
            try:
                return fn()
            except Exception as e:  # noqa: BLE001
                return False, "checking the checkpoint storage failed: %s" % e
        if self._agent.config.checkpoints_durable:
            return True, None
        return False, ("no durable checkpoint storage: this trainer did not say that its saves outlive a node (declare "
                       "CheckpointManager(directory, durable=True), or LIFELINE_CHECKPOINTS_DURABLE=1, when they go to "
                       "object storage or a shared file system)")

    def requested_deadline(self) -> datetime.datetime | None:
        """The deadline of the pending commanded checkpoint that is due first, the current time for one without a
        deadline (a signal), or None."""
        best: datetime.datetime | None = None
        for w in self._agent.coordinator.pending_requests():
            if w.kind != "save" or w.reason == "periodic":
                continue
            d = parse_rfc3339(w.deadline) if w.deadline else utc_now()
            if best is None or (d is not None and d < best):
                best = d
        return best
