"""Checkpoint helpers that report to Lifeline: atomic saves, checksums, verification, retention, elastic restore.

Layout: one directory per checkpoint under the manager's directory, named by its checkpoint id
(``step-<n>-<run>-<launch>-r<restart>``), holding the state (``state.pt`` written by ``torch.save``, or the shards of
``torch.distributed.checkpoint``) and ``manifest.json`` (step, world size, files with their SHA-256 and sizes, the
checkpoint's checksum). A save is written to ``.tmp-<id>-<pid>`` in the same directory, every file is fsynced, the
manifest is written last, then the directory is renamed into place and the parent fsynced: a crash leaves either
the old set or the new complete checkpoint, never a torn one. The checksum is ``sha256:<hex>`` of ``state.pt``
(computed while writing); for sharded checkpoints the SHA-256 of the sorted ``<file> <sha256>`` lines.

Where the directory is, the script says once: ``durable=True`` when it outlives any node (a shared file system, a
mounted bucket), ``durable=False`` when it is on each node's own disk (``LIFELINE_CHECKPOINTS_DURABLE`` when the
script does not say). On a node's own disk, every node of a job on several keeps its own copy of each checkpoint (the
local rank 0 of each node writes it), so the loss of one node leaves the copies on the others; a restore agrees on the
newest checkpoint any node holds and hands it to the nodes that lack it. Not said at all, rank 0 writes, and only the
saves before an exit (and those Lifeline asks to outlive a node) go to every node.

Events (global rank 0 only): ``trainer.checkpoint.started``, then ``completed`` (bytes, durationSeconds,
blockingSeconds, uri ``file://...``, checksum, worldSize, shards, ``durable`` as declared, ``replicas``: the nodes
holding a copy of a checkpoint on the nodes' own disks) or ``failed``; ``verified`` (read back, checksum compared:
``ok`` true or false); ``trainer.restored`` on every restore.

torch is imported only by the functions that need it. :class:`CheckpointManager` is the API; its parts are the
directory on disk (:mod:`~lifeline_agent.checkpoint_files`), the saves (:mod:`~lifeline_agent.checkpoint_save`), the
restores (:mod:`~lifeline_agent.checkpoint_restore`), what a checkpoint holds (:mod:`~lifeline_agent.checkpoint_state`)
and the collectives between the nodes (:mod:`~lifeline_agent.collectives`).
"""

from __future__ import annotations

import os
import random
import socket
from typing import TYPE_CHECKING, Any, Callable, Iterator, List, Mapping, Sized

from ._util import LOG
from .checkpoint_files import (FORMAT_DCP, FORMAT_TORCH, MANIFEST, STATE_FILE, CheckpointDirectory,
                               atomic_write_bytes, fsync_dir, path_of_uri, sha256_file)
from .checkpoint_guard import SPACE_MARGIN, NoSpaceError
from .checkpoint_restore import CheckpointRestorer
from .checkpoint_save import CheckpointSaver
from .checkpoint_state import CheckpointInfo, Manifest, Restored, Stateful, rng_state, set_rng_state
from .collectives import all_gather_json, broadcast_bytes
from .trust import describe, loss_wire

if TYPE_CHECKING:
    from .agent import Agent, NoopAgent

# What this module offered before its parts moved out, still importable from here.
__all__ = ["CheckpointManager", "CheckpointInfo", "Restored", "ElasticDistributedSampler", "scaled_lr", "elastic_lr",
           "set_lr", "rng_state", "set_rng_state", "atomic_write_bytes", "fsync_dir", "sha256_file",
           "all_gather_json", "broadcast_bytes", "MANIFEST", "STATE_FILE", "FORMAT_TORCH", "FORMAT_DCP", "Manifest",
           "Stateful", "NoSpaceError"]


# ---------------------------------------------------------------------- elastic helpers
def scaled_lr(base_lr: float, world_size: int, reference_world_size: int = 1) -> float:
    """The linear scaling rule: the learning rate grows with the global batch, i.e. with the world size."""
    return base_lr * float(world_size) / float(max(1, reference_world_size))


def elastic_lr(base_lr: float, world_size: int, step: int | None, reference_world_size: int = 1,
               previous_world_size: int | None = None, change_step: int | None = None, warmup_steps: int = 0) -> float:
    """The learning rate at ``step``: :func:`scaled_lr` for ``world_size``; after a restore at another world
    size (``previous_world_size`` at ``change_step``), moving linearly from the old scaled rate to the new one over
    ``warmup_steps`` steps (warm-up, as the linear scaling rule recommends)."""
    target = scaled_lr(base_lr, world_size, reference_world_size)
    if (previous_world_size and previous_world_size != world_size and warmup_steps > 0
            and change_step is not None and step is not None):
        start = scaled_lr(base_lr, previous_world_size, reference_world_size)
        frac = min(1.0, max(0.0, (step - change_step) / float(warmup_steps)))
        return start + (target - start) * frac
    return target


def set_lr(optimizer: Any, lr: float) -> None:
    for g in optimizer.param_groups:
        g["lr"] = lr


class ElasticDistributedSampler:
    """A DistributedSampler whose position survives a change of world size.

    Each epoch is a seeded permutation of the dataset's indices. The position is the number of samples of the
    epoch the whole job has consumed (``start``): the sampler skips them and deals the rest round-robin to the
    ranks, so rank r takes ``rest[r], rest[r+W], ...`` and global batch k of B samples per rank is exactly
    ``rest[k*B*W:(k+1)*B*W]`` for any world size W. Call :meth:`advance` with the global batch after every step
    and save :meth:`state_dict` in the checkpoint; after a restore at another world size, build a new sampler
    for the new rank and world and :meth:`load_state_dict`: nothing is seen twice or skipped.

    Standard library only; it works as the ``sampler`` of a ``torch.utils.data.DataLoader``.
    """

    def __init__(self, dataset: int | Sized, num_replicas: int = 1, rank: int = 0, shuffle: bool = True,
                 seed: int = 0) -> None:
        self.n = dataset if isinstance(dataset, int) else len(dataset)
        self.num_replicas = max(1, int(num_replicas))
        self.rank = int(rank)
        if not 0 <= self.rank < self.num_replicas:
            raise ValueError("rank %d outside a world of %d" % (self.rank, self.num_replicas))
        self.shuffle = shuffle
        self.seed = seed
        self.epoch = 0
        self.start = 0

    def _order(self) -> list[int]:
        idx = list(range(self.n))
        if self.shuffle:
            random.Random(self.seed * 1000003 + self.epoch).shuffle(idx)
        return idx

    def __iter__(self) -> Iterator[int]:
        rest = self._order()[self.start:]
        per = len(rest) // self.num_replicas
        return iter(rest[self.rank:per * self.num_replicas:self.num_replicas])

    def __len__(self) -> int:
        return max(0, self.n - self.start) // self.num_replicas

    def set_epoch(self, epoch: int) -> None:
        self.epoch = int(epoch)
        self.start = 0

    def advance(self, samples: int) -> None:
        """The whole job consumed ``samples`` more samples of this epoch (one step: the global batch)."""
        self.start = min(self.n, self.start + int(samples))

    def state_dict(self) -> dict[str, Any]:
        return {"epoch": self.epoch, "start": self.start, "seed": self.seed, "shuffle": self.shuffle, "n": self.n}

    def load_state_dict(self, state: Mapping[str, Any] | None) -> None:
        if not state:
            return
        if state.get("n", self.n) != self.n:
            LOG.warning("lifeline: the sampler's dataset had %s samples, now %s", state.get("n"), self.n)
        self.epoch = int(state.get("epoch", 0))
        self.start = min(self.n, int(state.get("start", 0)))
        self.seed = state.get("seed", self.seed)
        self.shuffle = state.get("shuffle", self.shuffle)


# ---------------------------------------------------------------------- the manager
class CheckpointManager:
    """Saves and restores checkpoints in ``directory`` and reports them through ``agent``.

    ``keep``: checkpoints kept (the newest ``keep`` intact ones; older ones are deleted after a save).
    ``verify``: ``"async"`` (read back and compare in a background thread after each save), ``"sync"`` or
    ``"off"``. ``format``: ``"torch"`` (rank 0 writes one ``torch.save`` file; DDP replicas are identical) or
    ``"dcp"`` (``torch.distributed.checkpoint``: every rank writes its shards; every rank must call save).
    ``async_write``: periodic saves serialise in memory (the blocking part) and write in a background thread.
    ``before_write``: a function called after ``started`` and before writing (tests use it to slow saves down).
    ``durable``: whether ``directory`` outlives any node: ``True`` (a shared file system, object storage mounted as
    one), ``False`` (each node's own disk: every node keeps its own copy, written synchronously, and ``save`` and
    ``restore`` are collectives every rank calls), ``None`` (default: ``LIFELINE_CHECKPOINTS_DURABLE``, else not
    said). Lifeline counts a checkpoint as protection against losing a node by it.
    ``space_margin``: a save needs the last checkpoint's size times this much free space in ``directory``'s file
    system, else it is refused with :class:`~lifeline_agent.checkpoint_guard.NoSpaceError` before anything is
    written (see :mod:`~lifeline_agent.checkpoint_guard`).
    """

    def __init__(self, directory: str | os.PathLike[str], agent: Agent | NoopAgent | None = None, keep: int = 3,
                 verify: str = "async", format: str = FORMAT_TORCH, async_write: bool = False, rank: int | None = None,
                 world_size: int | None = None, before_write: Callable[[int, str], object] | None = None,
                 durable: bool | None = None, space_margin: float = SPACE_MARGIN) -> None:
        if agent is None:
            import lifeline_agent
            agent = lifeline_agent.get()
        self.agent = agent
        self.directory = os.path.abspath(directory)
        os.makedirs(self.directory, exist_ok=True)
        self.keep = max(1, int(keep))
        if verify not in ("async", "sync", "off"):
            raise ValueError("verify: async, sync or off")
        self.verify_mode = verify
        if format not in (FORMAT_TORCH, FORMAT_DCP):
            raise ValueError("format: torch or dcp")
        self.format = format
        self.async_write = async_write
        self.before_write = before_write
        self.space_margin = max(1.0, float(space_margin))
        cfg = agent.config
        self.rank = cfg.rank if rank is None else rank
        self.world_size = cfg.world_size if world_size is None else world_size
        self.local_rank = 0 if self.rank == 0 else cfg.local_rank
        self.local_world_size = max(1, cfg.local_world_size)
        self.node = cfg.node or socket.gethostname()
        self.durable = durable if durable is not None else getattr(cfg, "checkpoints_durable", None)
        if self.durable is not None:
            self.durable = bool(self.durable)
        self.files = CheckpointDirectory(self.directory, self.node, self.rank, self.world_size, self.format, cfg,
                                         self._report_verified)
        self._saver = CheckpointSaver(self)
        self._restorer = CheckpointRestorer(self)
        self._saved_any = False
        self._restored_once = False
        self._branch = 0             # restores after the first one (rolled back): ids stay unique
        agent.set_restore_check(self.can_restore)
        if hasattr(agent, "set_storage_check"):
            agent.set_storage_check(self.survives_a_node)

    # ------------------------------------------------------------------ naming
    @property
    def reports(self) -> bool:
        return self.rank == 0

    def checkpoint_id(self, step: int) -> str:
        """``step-<n>-<run>-<launch>-r<restart>`` (rank 0's launch and restart count, the same on every rank; see
        :meth:`Agent.checkpoint_name`), ``-b<k>`` after the k-th restore that went back in time within one process."""
        cid = self.agent.checkpoint_name(step)
        if self._branch:
            cid += "-b%d" % self._branch
        return cid

    def path_of(self, checkpoint_id: str) -> str:
        return self.files.path_of(checkpoint_id)

    # ------------------------------------------------------------------ where the copies are
    def nodes(self) -> int:
        """Nodes of the job as torchrun started it (every node runs the same number of ranks)."""
        return max(1, -(-self.world_size // self.local_world_size))

    def survives_a_node(self) -> tuple[bool, str | None]:
        """(True, None) when a save made now outlives the loss of any one node, else (False, why): the agent answers
        Lifeline's commands that ask for such a save with it."""
        if self.durable:
            return True, None
        if self.format == FORMAT_TORCH and self.nodes() > 1:
            return True, None        # every node keeps its own copy
        if self.format == FORMAT_DCP:
            return False, ("no durable checkpoint storage: sharded checkpoints (format=dcp) in %s are in pieces on "
                           "every node; declare a directory that outlives the nodes (CheckpointManager(directory, "
                           "durable=True))" % self.directory)
        return False, ("no durable checkpoint storage: this trainer saves to %s on its only node; declare a directory "
                       "that outlives the node (CheckpointManager(directory, durable=True), or "
                       "LIFELINE_CHECKPOINTS_DURABLE=1)" % self.directory)

    def on_every_node(self, reason: str) -> bool:
        """Whether this save goes to every node (each keeps its own copy) rather than to rank 0's directory alone."""
        if self.format != FORMAT_TORCH or self.durable:
            return False
        if self.durable is False:
            return True
        # Not said: the saves that must outlive a node (before an exit, or as Lifeline asks) go to every node.
        return reason in ("prepare_exit", "signal") or self.agent.task_storage() == "durable"

    def node_group(self) -> Any:
        """torch.distributed when the ranks span several nodes and a process group is up, else None."""
        if self.nodes() <= 1:
            return None
        try:
            import torch.distributed as dist
        except ImportError:
            return None
        if not (dist.is_available() and dist.is_initialized()) or dist.get_world_size() <= 1:
            return None
        return dist

    def keeps_copy(self) -> bool:
        """Whether this rank looks after a copy in its own directory (writes, verifies and prunes it)."""
        return self.rank == 0 or (self.local_rank == 0 and not self.durable and self.format == FORMAT_TORCH)

    def trust_now(self) -> dict[str, Any]:
        """What a save made now records about the loss (see :mod:`lifeline_agent.trust`): ``loss`` as the events
        carry it, ``trusted`` and, for a suspect save, ``suspectReason``; empty when the loop never gave a loss."""
        loss = self.agent.current_loss()
        if loss is None:
            return {}
        reason = self.agent.losses.judge(loss)
        out: dict[str, Any] = {"loss": loss_wire(loss), "trusted": reason is None}
        if reason is not None:
            out["suspectReason"] = reason
            LOG.warning("lifeline: the checkpoint at step %s is suspect: %s", self.agent.current_step(),
                        describe(reason, loss, self.agent.losses.factor))
        return out

    def _report_verified(self, checkpoint_id: str, ok: bool, checksum: str | None) -> None:
        if self.reports:
            self.agent.emit(self.agent.events.checkpoint_verified(checkpoint_id, ok, checksum=checksum))

    # ------------------------------------------------------------------ saving
    def save(self, step: int, model: Stateful = None, optimizer: Stateful = None, scheduler: Stateful = None,
             sampler: Stateful = None, extra: Any = None, samples_seen: int | None = None,
             state: dict[str, Any] | None = None, reason: str = "periodic", rng: bool = True) -> CheckpointInfo:
        """Saves a checkpoint of ``step`` (the number of steps done). torch format: every rank may call it, rank 0
        writes. dcp format: every rank must call it, with ``state`` (or model/optimizer) to shard. Returns a
        :class:`CheckpointInfo`; raises when the save failed (after reporting trainer.checkpoint.failed)."""
        cid = self.checkpoint_id(step)
        self._saved_any = True
        try:
            return self._saver.save(cid, step, model, optimizer, scheduler, sampler, extra, samples_seen, state,
                                    reason, rng)
        finally:
            # The training thread is back (an asynchronous write goes on in the background): no longer "saving".
            self.agent.end_phase("saving", cid)

    def wait(self, timeout: float | None = None) -> bool:
        """Waits for background writes and verifications."""
        return self._saver.wait(timeout)

    # ------------------------------------------------------------------ reading
    def list(self) -> List[Manifest]:
        """Every checkpoint directory with a readable manifest, newest step first (unverified)."""
        return self.files.manifests()

    def verify(self, checkpoint_id: str | None = None, path: str | None = None,
               emit: bool = True) -> tuple[bool, str | None]:
        """Reads a checkpoint back and compares its files with the manifest. Sends trainer.checkpoint.verified
        (``ok`` true or false) unless ``emit`` is False. Returns (ok, checksum found)."""
        return self.files.verify(checkpoint_id, path, emit)

    def latest(self, verify: bool = True, allow_suspect: bool = False) -> Manifest | None:
        """The manifest of the newest intact checkpoint (verified by reading it back unless ``verify`` is False),
        skipping corrupt ones (reported as verified ok:false) and, unless ``allow_suspect``, suspect ones (saved
        after a non-finite loss or a loss spike); None when there is none."""
        return self.files.latest(verify, allow_suspect)

    def can_restore(self, checkpoint_id: str, uri: str | None = None) -> tuple[bool, str | None]:
        """(True, None) when ``checkpoint_id`` (or ``uri``, a file:// URI) is here and intact, else (False, why)."""
        path = self.path_of(checkpoint_id)
        if not os.path.isdir(path) and uri and uri.startswith("file://"):
            path = path_of_uri(uri)
        if not os.path.isdir(path):
            return False, "checkpoint %s is not under %s" % (checkpoint_id, self.directory)
        ok, _ = self.verify(checkpoint_id, path=path)
        if not ok:
            return False, "checkpoint %s is corrupt (checksum mismatch)" % checkpoint_id
        return True, None

    # ------------------------------------------------------------------ restoring
    def restore(self, model: Stateful = None, optimizer: Stateful = None, scheduler: Stateful = None,
                sampler: Stateful = None, checkpoint_id: str | None = None, state: dict[str, Any] | None = None,
                map_location: Any = "cpu", strict: bool = True, rng: bool = True,
                allow_suspect: bool = False) -> Restored | None:
        """Loads the newest intact trusted checkpoint (or ``checkpoint_id``, whatever its trust; or with
        ``allow_suspect`` the newest intact one, suspect or not) into the given objects and tells Lifeline
        (trainer.restored). Returns a :class:`Restored`, or None when there is nothing to restore. With directories
        not declared durable, on a job of several nodes, it is a collective (every rank calls it): the ranks restore
        the newest checkpoint any node holds, and the nodes without it receive it from one that has it."""
        key = object()
        self.agent.begin_phase("restoring", key)
        try:
            restored = self._restorer.restore(model, optimizer, scheduler, sampler, checkpoint_id, state,
                                              map_location, strict, rng, allow_suspect)
        finally:
            self.agent.end_phase("restoring", key)
        if restored is not None:
            if self._saved_any or self._restored_once:
                self._branch += 1
            self._restored_once = True
        return restored

    # ------------------------------------------------------------------ retention
    def prune(self) -> List[str | None]:
        """Keeps the newest ``keep`` intact checkpoints; deletes older ones (and stale temporary directories)."""
        if not self.keeps_copy():
            return []
        return self.files.prune(self.keep)
