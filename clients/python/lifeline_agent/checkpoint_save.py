"""Saving a checkpoint for a :class:`~lifeline_agent.checkpoint.CheckpointManager`: the payload, the write (at once
or in the background), the copies on every node, the verification after, and the reports of each."""

from __future__ import annotations

import io
import threading
import time
from typing import TYPE_CHECKING, Any, Optional, Tuple

from ._util import LOG, rfc3339
from .checkpoint_files import FORMAT_DCP, FORMAT_TORCH
from .checkpoint_guard import NoSpaceError, check_space, disk_space
from .checkpoint_state import CheckpointInfo, Stateful, dcp_state, rng_state, state_dict_of, unwrap
from .collectives import all_gather_json

if TYPE_CHECKING:
    from .checkpoint import CheckpointManager
    from .events import Event

#: One node's outcome of a save on every node: (node, kept a copy, why not).
NodeOutcome = Tuple[str, bool, Optional[str]]


class CheckpointSaver:
    """The saves of one manager, and the background writes and verifications they leave running."""

    def __init__(self, manager: CheckpointManager) -> None:
        self._manager = manager
        self._background: list[threading.Thread] = []

    def _emit(self, event: Event) -> None:
        if self._manager.reports:
            self._manager.agent.emit(event)

    def save(self, cid: str, step: int, model: Stateful, optimizer: Stateful, scheduler: Stateful, sampler: Stateful,
             extra: Any, samples_seen: int | None, state: dict[str, Any] | None, reason: str,
             rng: bool) -> CheckpointInfo:
        """Saves checkpoint ``cid`` of ``step`` (see :meth:`CheckpointManager.save`)."""
        m = self._manager
        m.agent.note_saving(cid, step)
        if m.on_every_node(reason):
            return self._save_on_every_node(cid, step, reason, model, optimizer, scheduler, sampler, extra,
                                            samples_seen, rng)
        writes = m.format == FORMAT_DCP or m.rank == 0
        if not writes:
            m.agent.note_checkpoint(cid, step, ok=True)
            return CheckpointInfo(cid, step, path=m.path_of(cid), written=False, world_size=m.world_size,
                                  reason=reason)
        t0 = time.monotonic()
        async_ = m.async_write and reason == "periodic" and m.format == FORMAT_TORCH
        trust = m.trust_now()
        try:
            check_space(m.directory, m.files.size_of_last(), m.space_margin)
        except NoSpaceError as e:
            self._failed(cid, step, e)
            raise
        self._emit(m.agent.events.checkpoint_started(cid, step, async_=async_, reason=reason,
                                                     loss=trust.get("loss")))
        try:
            if m.before_write is not None:
                m.before_write(step, reason)
            payload = self._payload(step, model, optimizer, scheduler, sampler, extra, samples_seen, rng)
            if async_:
                buf = io.BytesIO()
                import torch
                torch.save(payload, buf)
                data = buf.getvalue()
                blocking = time.monotonic() - t0
                t = threading.Thread(target=self._finish_async, args=(cid, step, data, t0, blocking, reason, trust),
                                     name="lifeline-checkpoint-write", daemon=True)
                self._background.append(t)
                t.start()
                return CheckpointInfo(cid, step, path=m.path_of(cid), world_size=m.world_size,
                                      blocking=blocking, reason=reason)
            dstate = None
            if m.format == FORMAT_DCP:
                dstate = dict(state or {})
                dstate.update(dcp_state(model, optimizer))
            info = m.files.write(cid, step, payload, dstate, t0, reason, trust)
        except BaseException as e:
            self._failed(cid, step, e)
            raise
        info.blocking = info.duration
        self._completed(info, async_=False)
        return info

    def _save_on_every_node(self, cid: str, step: int, reason: str, model: Stateful, optimizer: Stateful,
                            scheduler: Stateful, sampler: Stateful, extra: Any, samples_seen: int | None,
                            rng: bool) -> CheckpointInfo:
        """The local rank 0 of every node writes a copy to its own directory; the nodes' outcomes are gathered (a
        collective: every rank calls save) and rank 0 reports the checkpoint with the nodes that hold it."""
        m = self._manager
        writes = m.local_rank == 0
        t0 = time.monotonic()
        info: CheckpointInfo | None = None
        error: BaseException | None = None
        if writes:
            trust = m.trust_now()
            try:
                check_space(m.directory, m.files.size_of_last(), m.space_margin)
                self._emit(m.agent.events.checkpoint_started(cid, step, async_=False, reason=reason,
                                                             loss=trust.get("loss")))
                if m.before_write is not None:
                    m.before_write(step, reason)
                payload = self._payload(step, model, optimizer, scheduler, sampler, extra, samples_seen, rng)
                info = m.files.write(cid, step, payload, None, t0, reason, trust)
            except BaseException as e:  # noqa: BLE001 - every rank must reach the gather below first
                error = e
        outcomes: list[NodeOutcome] = [
            (m.node, info is not None, None if error is None else "%s: %s" % (type(error).__name__, error))
        ] if writes else []
        dist = m.node_group()
        if dist is not None:
            try:
                gathered = all_gather_json(dist, outcomes[0] if outcomes else None)
                outcomes = [(o[0], o[1], o[2]) for o in gathered if o is not None]
            except Exception as e:  # noqa: BLE001 - a node went away: count what this rank knows
                LOG.warning("lifeline: could not learn which nodes hold checkpoint %s (%s); counting this node's copy "
                            "only", cid, str(e).splitlines()[0][:200] if str(e) else type(e).__name__)
        held = sorted({n for n, ok, _ in outcomes if ok})
        for n, ok, why in outcomes:
            if not ok and n != m.node:
                LOG.warning("lifeline: node %s could not keep its copy of checkpoint %s: %s", n, cid, why)
        if not writes:
            m.agent.note_checkpoint(cid, step, ok=bool(held))
            return CheckpointInfo(cid, step, path=m.path_of(cid), written=False, world_size=m.world_size,
                                  reason=reason, replicas=held)
        if error is not None:
            if m.reports:
                self._failed(cid, step, error)
                raise error
            # Another node's copy is the checkpoint; this one's loss is logged and training goes on.
            LOG.warning("lifeline: this node's copy of checkpoint %s failed: %s", cid, error)
            m.agent.note_checkpoint(cid, step, ok=bool(held))
            return CheckpointInfo(cid, step, path=m.path_of(cid), written=False, world_size=m.world_size,
                                  reason=reason, replicas=held)
        assert info is not None     # written: no error
        info.blocking = info.duration = time.monotonic() - t0
        info.replicas = held or [m.node]
        self._completed(info, async_=False)
        return info

    def _finish_async(self, cid: str, step: int, data: bytes, t0: float, blocking: float, reason: str,
                      trust: dict[str, Any]) -> None:
        try:
            info = self._manager.files.write(cid, step, data, None, t0, reason, trust)
        except BaseException as e:  # noqa: BLE001
            self._failed(cid, step, e)
            return
        info.blocking = blocking
        self._completed(info, async_=True)

    def _failed(self, cid: str, step: int, e: BaseException) -> None:
        m = self._manager
        LOG.warning("lifeline: checkpoint %s (step %s) failed: %s", cid, step, e)
        text = "%s: %s" % (type(e).__name__, e) if not isinstance(e, KeyboardInterrupt) else "interrupted"
        if isinstance(e, NoSpaceError):
            space = disk_space(m.directory)
            self._emit(m.agent.events.checkpoint_failed(cid, step, text, reason=e.reason, free_bytes=e.free_bytes,
                                                        needed_bytes=e.needed_bytes,
                                                        capacity_bytes=space[1] if space else None))
        else:
            self._emit(m.agent.events.checkpoint_failed(cid, step, text))
        m.agent.note_checkpoint(cid, step, ok=False)

    def _completed(self, info: CheckpointInfo, async_: bool) -> None:
        m = self._manager
        replicas = info.replicas
        if replicas is None and not m.durable and m.format == FORMAT_TORCH:
            replicas = [m.node]     # rank 0's directory alone: on this node's disk unless said otherwise
        space = disk_space(m.directory)
        self._emit(m.agent.events.checkpoint_completed(
            info.checkpoint_id, info.step, info.duration or 0.0, info.blocking or 0.0, bytes_=info.bytes, uri=info.uri,
            checksum=info.checksum, shards=info.shards, async_=async_, world_size=info.world_size,
            durable=m.durable, replicas=replicas, free_bytes=space[0] if space else None,
            capacity_bytes=space[1] if space else None))
        m.agent.note_checkpoint(info.checkpoint_id, info.step, ok=True)
        LOG.info("lifeline: checkpoint %s saved (%s bytes, %.2f s)", info.checkpoint_id, info.bytes, info.duration)
        if m.keeps_copy():
            if m.verify_mode == "sync":
                m.verify(info.checkpoint_id)
                m.prune()
            elif m.verify_mode == "async":
                t = threading.Thread(target=self._verify_and_prune, args=(info.checkpoint_id,),
                                     name="lifeline-checkpoint-verify", daemon=True)
                self._background.append(t)
                t.start()
            else:
                m.prune()

    def _verify_and_prune(self, cid: str) -> None:
        m = self._manager
        try:
            m.verify(cid)
            m.prune()
        except Exception:  # noqa: BLE001
            LOG.exception("lifeline: verifying %s failed", cid)

    def wait(self, timeout: float | None = None) -> bool:
        """Waits for background writes and verifications."""
        end = None if timeout is None else time.monotonic() + timeout
        for t in list(self._background):
            t.join(None if end is None else max(0.0, end - time.monotonic()))
        self._background = [t for t in self._background if t.is_alive()]
        return not self._background

    def _payload(self, step: int, model: Stateful, optimizer: Stateful, scheduler: Stateful, sampler: Stateful,
                 extra: Any, samples_seen: int | None, rng: bool) -> dict[str, Any]:
        m = self._manager
        p: dict[str, Any] = {"step": int(step), "world_size": m.world_size, "saved_rank": m.rank,
                             "time": rfc3339()}
        if model is not None and m.format == FORMAT_TORCH:
            p["model"] = unwrap(model).state_dict()
        if optimizer is not None and m.format == FORMAT_TORCH:
            p["optimizer"] = state_dict_of(optimizer)
        if scheduler is not None:
            p["scheduler"] = state_dict_of(scheduler)
        if sampler is not None:
            p["sampler"] = state_dict_of(sampler)
        if samples_seen is not None:
            p["samples_seen"] = int(samples_seen)
        if extra is not None:
            p["extra"] = extra
        if rng:
            p["rng"] = rng_state()
        return p
