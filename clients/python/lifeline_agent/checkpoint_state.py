"""What a checkpoint holds and gives back: the objects' state (torch's, imported only where it is needed), the random
number generators' states, and what a save and a restore return."""

from __future__ import annotations

import random
from typing import IO, Any, Dict, Mapping

from ._util import LOG

#: A checkpoint's manifest.json (with ``path`` added where it was read from).
Manifest = Dict[str, Any]
#: Objects with a state_dict (a model, an optimizer, a scheduler, a sampler) or a plain dict: torch's types.
Stateful = Any


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


# ---------------------------------------------------------------------- state dicts
def unwrap(model: Stateful) -> Any:
    """The model inside a wrapper (DistributedDataParallel's ``module``), else the model."""
    return getattr(model, "module", model)


def state_dict_of(obj: Stateful) -> Any:
    """``obj.state_dict()``, a dict as it is, None for None."""
    if obj is None:
        return None
    if isinstance(obj, dict):
        return obj
    return obj.state_dict()


def dcp_state(model: Stateful, optimizer: Stateful) -> dict[str, Any]:
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
    out["model"] = unwrap(model).state_dict()
    if optimizer is not None:
        out["optimizer"] = optimizer.state_dict()
    return out


def torch_load(torch: Any, path: str | IO[bytes], map_location: Any) -> Any:
    try:
        return torch.load(path, map_location=map_location, weights_only=False)
    except TypeError:   # torch older than 1.13 has no weights_only
        return torch.load(path, map_location=map_location)
