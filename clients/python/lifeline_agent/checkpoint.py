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

torch is imported only by the functions that need it.
"""

from __future__ import annotations

import ctypes
import hashlib
import io
import json
import os
import random
import shutil
import socket
import threading
import time
from typing import IO, TYPE_CHECKING, Any, BinaryIO, Callable, Dict, Iterator, List, Mapping, Optional, Sized, \
    Tuple, cast

from ._util import LOG, rfc3339, safe_name

if TYPE_CHECKING:
    from .agent import Agent, NoopAgent
    from .events import Event

MANIFEST = "manifest.json"
STATE_FILE = "state.pt"
FORMAT_TORCH = "torch"
FORMAT_DCP = "dcp"
_CHUNK = 1 << 20

#: A checkpoint's manifest.json (with ``path`` added where it was read from).
Manifest = Dict[str, Any]
#: One node's outcome of a save on every node: (node, kept a copy, why not).
NodeOutcome = Tuple[str, bool, Optional[str]]
#: Objects with a state_dict (a model, an optimizer, a scheduler, a sampler) or a plain dict: torch's types.
Stateful = Any


# ---------------------------------------------------------------------- files
def fsync_dir(path: str) -> None:
    """fsync a directory so a rename in it is durable (a no-op where directories cannot be opened)."""
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def sha256_file(path: str) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        while True:
            b = f.read(_CHUNK)
            if not b:
                break
            h.update(b)
    return h.hexdigest()


def atomic_write_bytes(path: str, data: bytes) -> None:
    """Writes ``data`` to ``path`` atomically: a temporary file in the same directory, fsync, rename, fsync dir."""
    d = os.path.dirname(os.path.abspath(path))
    tmp = os.path.join(d, ".tmp-%s-%d-%d" % (os.path.basename(path), os.getpid(), threading.get_ident()))
    with open(tmp, "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)
    fsync_dir(d)


class _HashingWriter:
    """A file wrapper that hashes and counts what is written through it (torch.save needs write and flush)."""

    def __init__(self, f: BinaryIO) -> None:
        self._f = f
        self.sha = hashlib.sha256()
        self.bytes = 0

    def write(self, b: bytes) -> int:
        self.sha.update(b)
        self.bytes += len(b)
        return self._f.write(b)

    def flush(self) -> None:
        self._f.flush()


def _combined_checksum(files: Mapping[str, Mapping[str, Any]]) -> str:
    lines = "".join("%s %s\n" % (name, files[name]["sha256"]) for name in sorted(files))
    return "sha256:" + hashlib.sha256(lines.encode("utf-8")).hexdigest()


def _manifest_checksum(files: Mapping[str, Mapping[str, Any]], fmt: str) -> str:
    if fmt == FORMAT_TORCH and list(files) == [STATE_FILE]:
        return "sha256:" + str(files[STATE_FILE]["sha256"])
    return _combined_checksum(files)


# ---------------------------------------------------------------------- collectives
# torch's object collectives (all_gather_object, broadcast_object_list) need numpy; these move bytes through plain
# uint8 tensors, on the device the process group's backend wants.
def _device(torch: Any, dist: Any) -> str:
    try:
        if dist.get_backend() == "nccl":
            return "cuda:%d" % torch.cuda.current_device()
    except Exception:  # noqa: BLE001
        pass
    return "cpu"


def _to_tensor(torch: Any, data: bytes | None, size: int, device: str) -> Any:
    t = torch.zeros(size, dtype=torch.uint8)
    if data:
        t[:len(data)] = torch.frombuffer(bytearray(data), dtype=torch.uint8)
    return t.to(device)


def _to_bytes(t: Any, size: int) -> bytes:
    t = t[:size].cpu().contiguous()
    return ctypes.string_at(t.data_ptr(), size) if size else b""


def all_gather_json(dist: Any, obj: object) -> list[Any]:
    """Every rank's ``obj`` (JSON-encodable), in rank order."""
    import torch
    device = _device(torch, dist)
    data = json.dumps(obj).encode("utf-8")
    sizes = [torch.zeros(1, dtype=torch.int64, device=device) for _ in range(dist.get_world_size())]
    dist.all_gather(sizes, torch.tensor([len(data)], dtype=torch.int64, device=device))
    sizes = [int(x.item()) for x in sizes]
    width = max(sizes)
    bufs = [torch.zeros(width, dtype=torch.uint8, device=device) for _ in sizes]
    dist.all_gather(bufs, _to_tensor(torch, data, width, device))
    return [json.loads(_to_bytes(b, n).decode("utf-8")) for b, n in zip(bufs, sizes)]


def broadcast_bytes(dist: Any, data: bytes | None, src: int) -> bytes:
    """``data`` of rank ``src`` on every rank (the others pass None)."""
    import torch
    device = _device(torch, dist)
    own = data if dist.get_rank() == src else None
    if dist.get_rank() == src and own is None:
        raise ValueError("rank %d has no data to send" % src)
    n = torch.tensor([len(own) if own is not None else 0], dtype=torch.int64, device=device)
    dist.broadcast(n, src=src)
    size = int(n.item())
    buf = _to_tensor(torch, own, size, device)
    dist.broadcast(buf, src=src)
    return own if own is not None else _to_bytes(buf, size)


# ---------------------------------------------------------------------- results
class CheckpointInfo:
    """A save's outcome. ``written`` is False on ranks that do not write (all but rank 0 for torch.save)."""

    def __init__(self, checkpoint_id: str, step: int, path: str | None = None, uri: str | None = None,
                 bytes_: int | None = None, checksum: str | None = None, world_size: int | None = None,
                 shards: int | None = None, duration: float | None = None, blocking: float | None = None,
                 written: bool = True, reason: str | None = None, replicas: list[str] | None = None) -> None:
        self.checkpoint_id = checkpoint_id
        self.step = step
        self.path = path
        self.uri = uri
        self.bytes = bytes_
        self.checksum = checksum
        self.world_size = world_size
        self.shards = shards
        self.duration = duration
        self.blocking = blocking
        self.written = written
        self.reason = reason
        self.replicas = replicas     # the nodes holding a copy, for a checkpoint on the nodes' own disks

    def __repr__(self) -> str:
        return "CheckpointInfo(%s step=%s %s)" % (self.checkpoint_id, self.step, "written" if self.written else "-")


class Restored:
    """What a restore brought back: the step to resume after, and everything the loop needs for a new world size."""

    def __init__(self, checkpoint_id: str, step: int, world_size: int | None, path: str, state: Any,
                 manifest: Manifest) -> None:
        self.checkpoint_id = checkpoint_id
        self.step = step
        self.world_size = world_size           # the world size when it was saved
        self.path = path
        self.state = state                     # the whole loaded dict (torch format)
        self.manifest = manifest
        self.sampler = state.get("sampler") if isinstance(state, dict) else None
        self.extra = state.get("extra") if isinstance(state, dict) else None
        self.samples_seen = state.get("samples_seen") if isinstance(state, dict) else None

    def __repr__(self) -> str:
        return "Restored(%s step=%s world=%s)" % (self.checkpoint_id, self.step, self.world_size)


# ---------------------------------------------------------------------- RNG
def rng_state() -> dict[str, Any]:
    """Python's, torch's (and CUDA's, numpy's when present) random number generator states."""
    s: dict[str, Any] = {"python": random.getstate()}
    try:
        import torch
        s["torch"] = torch.get_rng_state()
        if torch.cuda.is_available():
            s["cuda"] = torch.cuda.get_rng_state_all()
    except Exception:  # noqa: BLE001
        pass
    try:
        import numpy  # noqa: F401
        s["numpy"] = numpy.random.get_state()
    except Exception:  # noqa: BLE001
        pass
    return s


def set_rng_state(s: Mapping[str, Any] | None, rank: int = 0, saved_rank: int = 0) -> None:
    """Restores the generators. A rank other than the one that saved them derives its own streams from them, so
    ranks do not draw the same numbers (dropout masks and the like)."""
    if not s:
        return
    derive = rank != saved_rank
    if "python" in s:
        random.setstate(s["python"])
        if derive:
            random.seed("%r/%d" % (random.random(), rank))
    try:
        import torch
        if "torch" in s:
            torch.set_rng_state(s["torch"])
            if derive:
                torch.manual_seed(int(torch.randint(0, 2 ** 62, (1,)).item()) + 7919 * rank)
        if "cuda" in s and torch.cuda.is_available() and len(s["cuda"]) == torch.cuda.device_count():
            torch.cuda.set_rng_state_all(s["cuda"])
    except Exception as e:  # noqa: BLE001
        LOG.warning("lifeline: torch RNG state not restored: %s", e)
    if "numpy" in s:
        try:
            import numpy
            numpy.random.set_state(s["numpy"])
            if derive:
                numpy.random.seed((numpy.random.randint(0, 2 ** 31) + 7919 * rank) % (2 ** 32))
        except Exception:  # noqa: BLE001
            pass


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


def _unwrap(model: Stateful) -> Any:
    return getattr(model, "module", model)


def _sd(obj: Stateful) -> Any:
    if obj is None:
        return None
    if isinstance(obj, dict):
        return obj
    return obj.state_dict()


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
    """

    def __init__(self, directory: str | os.PathLike[str], agent: Agent | NoopAgent | None = None, keep: int = 3,
                 verify: str = "async", format: str = FORMAT_TORCH, async_write: bool = False, rank: int | None = None,
                 world_size: int | None = None, before_write: Callable[[int, str], object] | None = None,
                 durable: bool | None = None) -> None:
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
        cfg = agent.config
        self.rank = cfg.rank if rank is None else rank
        self.world_size = cfg.world_size if world_size is None else world_size
        self.local_rank = 0 if self.rank == 0 else cfg.local_rank
        self.local_world_size = max(1, cfg.local_world_size)
        self.node = cfg.node or socket.gethostname()
        self.durable = durable if durable is not None else getattr(cfg, "checkpoints_durable", None)
        if self.durable is not None:
            self.durable = bool(self.durable)
        self._shared_with: set[str] = set()  # nodes seen writing the same checkpoint into this directory
        self._verified: dict[str, tuple[float | None, bool, str | None]] = {}
        #                                  path -> (mtime of the manifest, ok, checksum)
        self._lock = threading.Lock()
        self._background: List[threading.Thread] = []
        self._saved_any = False
        self._restored_once = False
        self._branch = 0             # restores after the first one (rolled back): ids stay unique
        self._dcp_objects: tuple[Stateful, Stateful] = (None, None)
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
        return os.path.join(self.directory, safe_name(checkpoint_id))

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

    def _on_every_node(self, reason: str) -> bool:
        """Whether this save goes to every node (each keeps its own copy) rather than to rank 0's directory alone."""
        if self.format != FORMAT_TORCH or self.durable:
            return False
        if self.durable is False:
            return True
        # Not said: the saves that must outlive a node (before an exit, or as Lifeline asks) go to every node.
        return reason in ("prepare_exit", "signal") or self.agent.task_storage() == "durable"

    def _node_group(self) -> Any:
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

    def _keeps_copy(self) -> bool:
        """Whether this rank looks after a copy in its own directory (writes, verifies and prunes it)."""
        return self.rank == 0 or (self.local_rank == 0 and not self.durable and self.format == FORMAT_TORCH)

    def _emit(self, event: Event) -> None:
        if self.reports:
            self.agent.emit(event)

    # ------------------------------------------------------------------ saving
    def save(self, step: int, model: Stateful = None, optimizer: Stateful = None, scheduler: Stateful = None,
             sampler: Stateful = None, extra: Any = None, samples_seen: int | None = None,
             state: dict[str, Any] | None = None, reason: str = "periodic", rng: bool = True) -> CheckpointInfo:
        """Saves a checkpoint of ``step`` (the number of steps done). torch format: every rank may call it, rank 0
        writes. dcp format: every rank must call it, with ``state`` (or model/optimizer) to shard. Returns a
        :class:`CheckpointInfo`; raises when the save failed (after reporting trainer.checkpoint.failed)."""
        cid = self.checkpoint_id(step)
        self._saved_any = True
        self.agent.note_saving(cid, step)
        if self._on_every_node(reason):
            return self._save_on_every_node(cid, step, reason, model, optimizer, scheduler, sampler, extra,
                                            samples_seen, rng)
        writes = self.format == FORMAT_DCP or self.rank == 0
        if not writes:
            self.agent.note_checkpoint(cid, step, ok=True)
            return CheckpointInfo(cid, step, path=self.path_of(cid), written=False, world_size=self.world_size,
                                  reason=reason)
        t0 = time.monotonic()
        async_ = self.async_write and reason == "periodic" and self.format == FORMAT_TORCH
        self._emit(self.agent.events.checkpoint_started(cid, step, async_=async_, reason=reason))
        try:
            if self.before_write is not None:
                self.before_write(step, reason)
            payload = self._payload(step, model, optimizer, scheduler, sampler, extra, samples_seen, rng)
            if async_:
                buf = io.BytesIO()
                import torch
                torch.save(payload, buf)
                data = buf.getvalue()
                blocking = time.monotonic() - t0
                t = threading.Thread(target=self._finish_async, args=(cid, step, data, t0, blocking, reason),
                                     name="lifeline-checkpoint-write", daemon=True)
                self._background.append(t)
                t.start()
                return CheckpointInfo(cid, step, path=self.path_of(cid), world_size=self.world_size,
                                      blocking=blocking, reason=reason)
            info = self._write(cid, step, payload, state, t0, reason)
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
        writes = self.local_rank == 0
        t0 = time.monotonic()
        info: CheckpointInfo | None = None
        error: BaseException | None = None
        if writes:
            self._emit(self.agent.events.checkpoint_started(cid, step, async_=False, reason=reason))
            try:
                if self.before_write is not None:
                    self.before_write(step, reason)
                payload = self._payload(step, model, optimizer, scheduler, sampler, extra, samples_seen, rng)
                info = self._write(cid, step, payload, None, t0, reason)
            except BaseException as e:  # noqa: BLE001 - every rank must reach the gather below first
                error = e
        outcomes: list[NodeOutcome] = [
            (self.node, info is not None, None if error is None else "%s: %s" % (type(error).__name__, error))
        ] if writes else []
        dist = self._node_group()
        if dist is not None:
            try:
                gathered = all_gather_json(dist, outcomes[0] if outcomes else None)
                outcomes = [(o[0], o[1], o[2]) for o in gathered if o is not None]
            except Exception as e:  # noqa: BLE001 - a node went away: count what this rank knows
                LOG.warning("lifeline: could not learn which nodes hold checkpoint %s (%s); counting this node's copy "
                            "only", cid, str(e).splitlines()[0][:200] if str(e) else type(e).__name__)
        held = sorted({n for n, ok, _ in outcomes if ok})
        for n, ok, why in outcomes:
            if not ok and n != self.node:
                LOG.warning("lifeline: node %s could not keep its copy of checkpoint %s: %s", n, cid, why)
        if not writes:
            self.agent.note_checkpoint(cid, step, ok=bool(held))
            return CheckpointInfo(cid, step, path=self.path_of(cid), written=False, world_size=self.world_size,
                                  reason=reason, replicas=held)
        if error is not None:
            if self.reports:
                self._failed(cid, step, error)
                raise error
            # Another node's copy is the checkpoint; this one's loss is logged and training goes on.
            LOG.warning("lifeline: this node's copy of checkpoint %s failed: %s", cid, error)
            self.agent.note_checkpoint(cid, step, ok=bool(held))
            return CheckpointInfo(cid, step, path=self.path_of(cid), written=False, world_size=self.world_size,
                                  reason=reason, replicas=held)
        assert info is not None     # written: no error
        info.blocking = info.duration = time.monotonic() - t0
        info.replicas = held or [self.node]
        self._completed(info, async_=False)
        return info

    def _finish_async(self, cid: str, step: int, data: bytes, t0: float, blocking: float, reason: str) -> None:
        try:
            info = self._write(cid, step, data, None, t0, reason)
        except BaseException as e:  # noqa: BLE001
            self._failed(cid, step, e)
            return
        info.blocking = blocking
        self._completed(info, async_=True)

    def _failed(self, cid: str, step: int, e: BaseException) -> None:
        LOG.warning("lifeline: checkpoint %s (step %s) failed: %s", cid, step, e)
        text = "%s: %s" % (type(e).__name__, e) if not isinstance(e, KeyboardInterrupt) else "interrupted"
        self._emit(self.agent.events.checkpoint_failed(cid, step, text))
        self.agent.note_checkpoint(cid, step, ok=False)

    def _completed(self, info: CheckpointInfo, async_: bool) -> None:
        replicas = info.replicas
        if replicas is None and not self.durable and self.format == FORMAT_TORCH:
            replicas = [self.node]     # rank 0's directory alone: on this node's disk unless said otherwise
        self._emit(self.agent.events.checkpoint_completed(
            info.checkpoint_id, info.step, info.duration or 0.0, info.blocking or 0.0, bytes_=info.bytes, uri=info.uri,
            checksum=info.checksum, shards=info.shards, async_=async_, world_size=info.world_size,
            durable=self.durable, replicas=replicas))
        self.agent.note_checkpoint(info.checkpoint_id, info.step, ok=True)
        LOG.info("lifeline: checkpoint %s saved (%s bytes, %.2f s)", info.checkpoint_id, info.bytes, info.duration)
        if self._keeps_copy():
            if self.verify_mode == "sync":
                self.verify(info.checkpoint_id)
                self.prune()
            elif self.verify_mode == "async":
                t = threading.Thread(target=self._verify_and_prune, args=(info.checkpoint_id,),
                                     name="lifeline-checkpoint-verify", daemon=True)
                self._background.append(t)
                t.start()
            else:
                self.prune()

    def _verify_and_prune(self, cid: str) -> None:
        try:
            self.verify(cid)
            self.prune()
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
        p: dict[str, Any] = {"step": int(step), "world_size": self.world_size, "saved_rank": self.rank,
                             "time": rfc3339()}
        self._dcp_objects = (model, optimizer)
        if model is not None and self.format == FORMAT_TORCH:
            p["model"] = _unwrap(model).state_dict()
        if optimizer is not None and self.format == FORMAT_TORCH:
            p["optimizer"] = _sd(optimizer)
        if scheduler is not None:
            p["scheduler"] = _sd(scheduler)
        if sampler is not None:
            p["sampler"] = _sd(sampler)
        if samples_seen is not None:
            p["samples_seen"] = int(samples_seen)
        if extra is not None:
            p["extra"] = extra
        if rng:
            p["rng"] = rng_state()
        return p

    @staticmethod
    def _dcp_state(model: Stateful, optimizer: Stateful) -> dict[str, Any]:
        """Model and optimizer state as torch.distributed.checkpoint wants them (sharded where they are)."""
        out: dict[str, Any] = {}
        if model is None:
            return out
        try:
            from torch.distributed.checkpoint.state_dict import get_state_dict
            if optimizer is not None:
                msd, osd = get_state_dict(model, optimizer)
                out["model"], out["optimizer"] = msd, osd
                return out
        except ImportError:
            pass
        out["model"] = _unwrap(model).state_dict()
        if optimizer is not None:
            out["optimizer"] = optimizer.state_dict()
        return out

    def _write(self, cid: str, step: int, payload: dict[str, Any] | bytes, state: dict[str, Any] | None, t0: float,
               reason: str) -> CheckpointInfo:
        final = self.path_of(cid)
        tmp = os.path.join(self.directory, ".tmp-%s-%s-%d" % (safe_name(cid), safe_name(self.node, "node"),
                                                              os.getpid()))
        if self.format == FORMAT_DCP:
            tmp = os.path.join(self.directory, ".tmp-%s" % safe_name(cid))   # the same path on every rank
        if os.path.exists(tmp) and self.rank == 0:
            shutil.rmtree(tmp, ignore_errors=True)
        os.makedirs(tmp, exist_ok=True)
        try:
            files: dict[str, dict[str, Any]] = {}
            if self.format == FORMAT_TORCH:
                path = os.path.join(tmp, STATE_FILE)
                with open(path, "wb") as f:
                    if isinstance(payload, (bytes, bytearray)):
                        f.write(payload)
                        sha, size = hashlib.sha256(payload).hexdigest(), len(payload)
                    else:
                        import torch
                        w = _HashingWriter(f)
                        torch.save(payload, w)
                        sha, size = w.sha.hexdigest(), w.bytes
                    f.flush()
                    os.fsync(f.fileno())
                files[STATE_FILE] = {"sha256": sha, "bytes": size}
                shards = 1
            else:
                import torch.distributed.checkpoint as dcp
                dstate = dict(state or {})
                meta = {k: v for k, v in cast(Dict[str, Any], payload).items() if k not in ("model", "optimizer")}
                dstate.update(self._dcp_state(self._dcp_objects[0], self._dcp_objects[1]))
                dcp.save(dstate, checkpoint_id=tmp)
                if self.rank != 0:
                    return CheckpointInfo(cid, step, path=final, written=True, world_size=self.world_size,
                                          duration=time.monotonic() - t0, reason=reason)
                import torch
                with open(os.path.join(tmp, "meta.pt"), "wb") as f:
                    torch.save(meta, f)
                    f.flush()
                    os.fsync(f.fileno())
                for root, _, names in os.walk(tmp):
                    for n in names:
                        full = os.path.join(root, n)
                        rel = os.path.relpath(full, tmp)
                        if rel == MANIFEST:
                            continue
                        with open(full, "rb") as written:
                            os.fsync(written.fileno())
                        files[rel] = {"sha256": sha256_file(full), "bytes": os.path.getsize(full)}
                shards = max(1, self.world_size)
            checksum: str | None = _manifest_checksum(files, self.format)
            manifest = {
                "checkpointId": cid, "step": int(step), "worldSize": self.world_size, "format": self.format,
                "files": files, "checksum": checksum, "created": rfc3339(), "reason": reason,
                "runId": self.agent.config.run_id, "restartCount": self.agent.config.restart_count,
                "launch": self.agent.config.launch,
                "host": socket.gethostname(), "node": self.node, "shards": shards,
            }
            atomic_write_bytes(os.path.join(tmp, MANIFEST), json.dumps(manifest, indent=1).encode("utf-8"))
            fsync_dir(tmp)
            peer = self._peer_copy(final, cid)
            if peer is None:
                trash = None
                if os.path.exists(final):
                    trash = final + ".old-%s-%d" % (safe_name(self.node, "node"), os.getpid())
                    os.replace(final, trash)
                try:
                    os.replace(tmp, final)
                except OSError:
                    # Another node renamed its copy into place first: the directory is shared.
                    peer = self._peer_copy(final, cid)
                    if peer is None:
                        raise
                fsync_dir(self.directory)
                if trash:
                    shutil.rmtree(trash, ignore_errors=True)
            if peer is not None:
                shutil.rmtree(tmp, ignore_errors=True)
                files, checksum = peer["files"], peer.get("checksum")
        except BaseException:
            shutil.rmtree(tmp, ignore_errors=True)
            raise
        size = sum(f["bytes"] for f in files.values())
        return CheckpointInfo(cid, step, path=final, uri=_file_uri(final), bytes_=size, checksum=checksum,
                              world_size=self.world_size, shards=shards, duration=time.monotonic() - t0,
                              reason=reason)

    def _peer_copy(self, final: str, cid: str) -> Manifest | None:
        """The manifest at ``final`` when another node wrote the same checkpoint there (the directory is shared by
        the nodes although not declared durable), else None."""
        m = self._read_manifest(final) if os.path.isdir(final) else None
        if m is None or m.get("checkpointId") != cid or m.get("node", self.node) == self.node:
            return None
        if m["node"] not in self._shared_with:
            self._shared_with.add(m["node"])
            LOG.warning("lifeline: node %s wrote checkpoint %s into %s as well: the nodes share this directory; "
                        "declare CheckpointManager(%r, durable=True) so that Lifeline counts it and one node writes",
                        m["node"], cid, self.directory, self.directory)
        return m

    # ------------------------------------------------------------------ reading
    def _read_manifest(self, path: str) -> Manifest | None:
        try:
            with open(os.path.join(path, MANIFEST), "rb") as f:
                m = json.loads(f.read().decode("utf-8"))
            if isinstance(m, dict) and isinstance(m.get("step"), int) and isinstance(m.get("files"), dict):
                return m
        except (OSError, ValueError, UnicodeDecodeError):
            pass
        return None

    def list(self) -> List[Manifest]:
        """Every checkpoint directory with a readable manifest, newest step first (unverified)."""
        out: List[Manifest] = []
        try:
            names = os.listdir(self.directory)
        except OSError:
            return out
        for n in names:
            if n.startswith("."):
                continue
            p = os.path.join(self.directory, n)
            if not os.path.isdir(p):
                continue
            m = self._read_manifest(p)
            if m is None:
                if os.path.exists(os.path.join(p, STATE_FILE)):
                    out.append({"checkpointId": n, "step": -1, "files": {}, "path": p, "broken": True})
                continue
            m["path"] = p
            out.append(m)
        out.sort(key=lambda m: (m.get("step", -1), m.get("created") or ""), reverse=True)
        return out

    def verify(self, checkpoint_id: str | None = None, path: str | None = None,
               emit: bool = True) -> tuple[bool, str | None]:
        """Reads a checkpoint back and compares its files with the manifest. Sends trainer.checkpoint.verified
        (``ok`` true or false) unless ``emit`` is False. Returns (ok, checksum found)."""
        path = path or self.path_of(checkpoint_id or "")
        m = self._read_manifest(path)
        cid: str = checkpoint_id or (m.get("checkpointId") if m else None) or os.path.basename(path)
        found: str | None = None
        if m is None:
            ok = False
        else:
            ok = True
            hashes: dict[str, dict[str, str]] = {}
            for name, f in m["files"].items():
                full = os.path.join(path, name)
                try:
                    sha = sha256_file(full)
                except OSError:
                    ok = False
                    continue
                hashes[name] = {"sha256": sha}
                if sha != f.get("sha256") or os.path.getsize(full) != f.get("bytes", os.path.getsize(full)):
                    ok = False
            if len(hashes) == len(m["files"]):
                found = _manifest_checksum(hashes, m.get("format", FORMAT_TORCH))
            if ok and found != m.get("checksum"):
                ok = False
        try:
            mtime = os.path.getmtime(os.path.join(path, MANIFEST))
        except OSError:
            mtime = None
        with self._lock:
            self._verified[path] = (mtime, ok, found)
        if not ok:
            LOG.warning("lifeline: checkpoint %s at %s is corrupt or incomplete", cid, path)
        if emit:
            self._emit(self.agent.events.checkpoint_verified(cid, ok, checksum=found))
        return ok, found

    def _known_ok(self, path: str) -> bool | None:
        with self._lock:
            v = self._verified.get(path)
        if v is None:
            return None
        try:
            mtime = os.path.getmtime(os.path.join(path, MANIFEST))
        except OSError:
            return False
        return v[1] if v[0] == mtime else None

    def latest(self, verify: bool = True) -> Manifest | None:
        """The manifest of the newest intact checkpoint (verified by reading it back unless ``verify`` is False),
        skipping corrupt ones (reported as verified ok:false); None when there is none."""
        for m in self.list():
            if m.get("broken"):
                continue
            if not verify:
                return m
            known = self._known_ok(m["path"])
            if known is None:
                known, _ = self.verify(m.get("checkpointId"), path=m["path"])
            if known:
                return m
        return None

    def can_restore(self, checkpoint_id: str, uri: str | None = None) -> tuple[bool, str | None]:
        """(True, None) when ``checkpoint_id`` (or ``uri``, a file:// URI) is here and intact, else (False, why)."""
        path = self.path_of(checkpoint_id)
        if not os.path.isdir(path) and uri and uri.startswith("file://"):
            path = _path_of_uri(uri)
        if not os.path.isdir(path):
            return False, "checkpoint %s is not under %s" % (checkpoint_id, self.directory)
        ok, _ = self.verify(checkpoint_id, path=path)
        if not ok:
            return False, "checkpoint %s is corrupt (checksum mismatch)" % checkpoint_id
        return True, None

    # ------------------------------------------------------------------ restoring
    def restore(self, model: Stateful = None, optimizer: Stateful = None, scheduler: Stateful = None,
                sampler: Stateful = None, checkpoint_id: str | None = None, state: dict[str, Any] | None = None,
                map_location: Any = "cpu", strict: bool = True, rng: bool = True) -> Restored | None:
        """Loads the newest intact checkpoint (or ``checkpoint_id``) into the given objects and tells Lifeline
        (trainer.restored). Returns a :class:`Restored`, or None when there is nothing to restore. With directories
        not declared durable, on a job of several nodes, it is a collective (every rank calls it): the ranks restore
        the newest checkpoint any node holds, and the nodes without it receive it from one that has it."""
        dist = self._node_group() if not self.durable and self.format == FORMAT_TORCH else None
        received = None
        if dist is not None:
            m, received = self._agree(dist, checkpoint_id)
            if m is None:
                if checkpoint_id is not None:
                    raise FileNotFoundError("no node holds checkpoint %s" % checkpoint_id)
                return None
        elif checkpoint_id is not None:
            path = self.path_of(checkpoint_id)
            m = self._read_manifest(path)
            if m is None:
                raise FileNotFoundError("no checkpoint %s under %s" % (checkpoint_id, self.directory))
            if self._known_ok(path) is not True:
                ok, _ = self.verify(checkpoint_id, path=path)
                if not ok:
                    raise ValueError("checkpoint %s is corrupt" % checkpoint_id)
            m["path"] = path
        else:
            m = self.latest()
            if m is None:
                return None
        path = m["path"]
        cid = m.get("checkpointId") or os.path.basename(path)
        import torch
        if m.get("format", FORMAT_TORCH) == FORMAT_TORCH:
            payload = _torch_load(torch, io.BytesIO(received) if received is not None
                                  else os.path.join(path, STATE_FILE), map_location)
        else:
            import torch.distributed.checkpoint as dcp
            payload = _torch_load(torch, os.path.join(path, "meta.pt"), map_location)
            dstate = dict(state or {})
            objs = self._dcp_state(model, optimizer)
            dstate.update(objs)
            dcp.load(dstate, checkpoint_id=path)
            if model is not None:
                try:
                    from torch.distributed.checkpoint.state_dict import set_state_dict
                    if optimizer is not None:
                        set_state_dict(model, optimizer, model_state_dict=dstate["model"],
                                       optim_state_dict=dstate["optimizer"])
                    else:
                        _unwrap(model).load_state_dict(dstate["model"], strict=strict)
                except ImportError:
                    _unwrap(model).load_state_dict(dstate["model"], strict=strict)
                    if optimizer is not None:
                        optimizer.load_state_dict(dstate["optimizer"])
            model = optimizer = None      # loaded above
            payload.update({k: v for k, v in dstate.items() if k not in objs})
        if model is not None and "model" in payload:
            _unwrap(model).load_state_dict(payload["model"], strict=strict)
        if optimizer is not None and "optimizer" in payload:
            optimizer.load_state_dict(payload["optimizer"])
        if scheduler is not None and payload.get("scheduler") is not None:
            scheduler.load_state_dict(payload["scheduler"])
        if sampler is not None and payload.get("sampler") is not None and hasattr(sampler, "load_state_dict"):
            sampler.load_state_dict(payload["sampler"])
        if rng and payload.get("rng"):
            set_rng_state(payload["rng"], rank=self.rank, saved_rank=payload.get("saved_rank", 0))
        step = int(payload.get("step", m.get("step", 0)))
        if self._saved_any or self._restored_once:
            self._branch += 1
        self._restored_once = True
        self.agent.note_restore(cid, step)
        LOG.info("lifeline: restored %s (step %d, saved at world size %s, now %s)", cid, step,
                 payload.get("world_size"), self.world_size)
        return Restored(cid, step, payload.get("world_size", m.get("worldSize")), path, payload, m)

    def _local_choice(self, checkpoint_id: str | None) -> Manifest | None:
        """This directory's candidate for a restore: ``checkpoint_id`` when it is here and intact, else (no id
        asked) the newest intact one; None."""
        if checkpoint_id is None:
            return self.latest()
        path = self.path_of(checkpoint_id)
        m = self._read_manifest(path)
        if m is None:
            return None
        if self._known_ok(path) is not True and not self.verify(checkpoint_id, path=path)[0]:
            return None
        m["path"] = path
        return m

    def _agree(self, dist: Any, checkpoint_id: str | None) -> tuple[Manifest | None, bytes | None]:
        """Directories on the nodes' own disks, a job on several nodes: every rank restores the same checkpoint,
        ``checkpoint_id`` or the newest one any node holds; a node that lacks it receives it from the first rank
        whose node holds it, and keeps a copy. Returns (manifest, state bytes received or None), or (None, None)."""
        has = None
        if self.local_rank == 0:
            m = self._local_choice(checkpoint_id)
            if m is not None and m.get("format", FORMAT_TORCH) == FORMAT_TORCH and not m.get("broken"):
                has = {"id": m.get("checkpointId") or os.path.basename(m["path"]), "step": int(m["step"]),
                       "created": m.get("created") or ""}
        everyone = all_gather_json(dist, {"node": self.node, "lead": self.local_rank == 0, "has": has})
        offers = [(r, e["has"]) for r, e in enumerate(everyone) if e and e["lead"] and e["has"]]
        if not offers:
            return None, None
        best = max((h for _, h in offers), key=lambda h: (h["step"], h["created"], h["id"]))
        holders = {everyone[r]["node"] for r, h in offers if h["id"] == best["id"]}
        nodes = {e["node"] for e in everyone if e}
        if holders < nodes:
            src = min(r for r, h in offers if h["id"] == best["id"])
            manifest: bytes | None = None
            state: bytes | None = None
            if self.rank == src:
                path = self.path_of(best["id"])
                with open(os.path.join(path, MANIFEST), "rb") as f:
                    manifest = f.read()
                with open(os.path.join(path, STATE_FILE), "rb") as f:
                    state = f.read()
            data = {"manifest": broadcast_bytes(dist, manifest, src), "state": broadcast_bytes(dist, state, src)}
            if self.node not in holders:
                got: Manifest = json.loads(data["manifest"].decode("utf-8"))
                want = got.get("files", {}).get(STATE_FILE, {}).get("sha256")
                if hashlib.sha256(data["state"]).hexdigest() != want:
                    raise ValueError("checkpoint %s arrived from another node damaged (checksum mismatch)"
                                     % best["id"])
                if self.local_rank == 0:
                    self._keep_received(best["id"], data)
                got["path"] = self.path_of(best["id"])
                LOG.info("lifeline: checkpoint %s (step %s) received from rank %d: this node had %s", best["id"],
                         best["step"], src, "an older one" if any(everyone[r]["node"] == self.node for r, _ in offers)
                         else "none")
                return got, data["state"]
        path = self.path_of(best["id"])
        m = self._read_manifest(path)
        if m is None:
            raise FileNotFoundError("checkpoint %s went missing from %s during the restore" % (best["id"], path))
        m["path"] = path
        return m, None

    def _keep_received(self, cid: str, data: Mapping[str, bytes]) -> None:
        """Writes a checkpoint received from another node into this node's directory (atomically, as a save)."""
        final = self.path_of(cid)
        tmp = os.path.join(self.directory, ".tmp-%s-%s-%d" % (safe_name(cid), safe_name(self.node, "node"),
                                                              os.getpid()))
        try:
            os.makedirs(tmp, exist_ok=True)
            for name, blob in ((STATE_FILE, data["state"]), (MANIFEST, data["manifest"])):
                with open(os.path.join(tmp, name), "wb") as f:
                    f.write(blob)
                    f.flush()
                    os.fsync(f.fileno())
            fsync_dir(tmp)
            if os.path.exists(final):
                shutil.rmtree(final, ignore_errors=True)
            os.replace(tmp, final)
            fsync_dir(self.directory)
        except OSError as e:
            shutil.rmtree(tmp, ignore_errors=True)
            LOG.warning("lifeline: could not keep a copy of checkpoint %s received from another node: %s", cid, e)

    # ------------------------------------------------------------------ retention
    def prune(self) -> List[str | None]:
        """Keeps the newest ``keep`` intact checkpoints; deletes older ones (and stale temporary directories)."""
        if not self._keeps_copy():
            return []
        removed: List[str | None] = []
        good = 0
        for m in self.list():
            if good >= self.keep:
                shutil.rmtree(m["path"], ignore_errors=True)
                removed.append(m.get("checkpointId"))
                continue
            if self._known_ok(m["path"]) is not False and not m.get("broken"):
                good += 1
        now = time.time()
        try:
            for n in os.listdir(self.directory):
                p = os.path.join(self.directory, n)
                if n.startswith(".tmp-") and now - os.path.getmtime(p) > 3600:
                    shutil.rmtree(p, ignore_errors=True) if os.path.isdir(p) else os.remove(p)
        except OSError:
            pass
        return removed


def _torch_load(torch: Any, path: str | IO[bytes], map_location: Any) -> Any:
    try:
        return torch.load(path, map_location=map_location, weights_only=False)
    except TypeError:   # torch older than 1.13 has no weights_only
        return torch.load(path, map_location=map_location)


def _file_uri(path: str) -> str:
    import pathlib
    return pathlib.Path(path).absolute().as_uri() + "/"


def _path_of_uri(uri: str) -> str:
    import urllib.parse
    import urllib.request
    return urllib.request.url2pathname(urllib.parse.urlparse(uri).path).rstrip("/")
