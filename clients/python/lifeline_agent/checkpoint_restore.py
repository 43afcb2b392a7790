"""Restoring a checkpoint for a :class:`~lifeline_agent.checkpoint.CheckpointManager`: which one (this directory's
newest intact one, or the one asked for; on the nodes' own disks, the newest any node holds, handed to the nodes that
lack it), then the objects loaded from it."""

from __future__ import annotations

import hashlib
import io
import json
import os
from typing import TYPE_CHECKING, Any

from ._util import LOG
from .checkpoint_files import FORMAT_TORCH, MANIFEST, STATE_FILE
from .checkpoint_state import Manifest, Restored, Stateful, dcp_state, set_rng_state, torch_load, unwrap
from .collectives import all_gather_json, broadcast_bytes

if TYPE_CHECKING:
    from .checkpoint import CheckpointManager


class CheckpointRestorer:
    """The restores of one manager."""

    def __init__(self, manager: CheckpointManager) -> None:
        self._manager = manager

    def restore(self, model: Stateful, optimizer: Stateful, scheduler: Stateful, sampler: Stateful,
                checkpoint_id: str | None, state: dict[str, Any] | None, map_location: Any, strict: bool,
                rng: bool, allow_suspect: bool = False) -> Restored | None:
        """See :meth:`CheckpointManager.restore`."""
        mgr = self._manager
        dist = mgr.node_group() if not mgr.durable and mgr.format == FORMAT_TORCH else None
        received = None
        if dist is not None:
            m, received = self._agree(dist, checkpoint_id, allow_suspect)
            if m is None:
                if checkpoint_id is not None:
                    raise FileNotFoundError("no node holds checkpoint %s" % checkpoint_id)
                return None
        elif checkpoint_id is not None:
            path = mgr.path_of(checkpoint_id)
            m = mgr.files.read_manifest(path)
            if m is None:
                raise FileNotFoundError("no checkpoint %s under %s" % (checkpoint_id, mgr.directory))
            if mgr.files.known_ok(path) is not True:
                ok, _ = mgr.verify(checkpoint_id, path=path)
                if not ok:
                    raise ValueError("checkpoint %s is corrupt" % checkpoint_id)
            m["path"] = path
        else:
            m = mgr.latest(allow_suspect=allow_suspect)
            if m is None:
                return None
        path = m["path"]
        cid = m.get("checkpointId") or os.path.basename(path)
        import torch
        if m.get("format", FORMAT_TORCH) == FORMAT_TORCH:
            payload = torch_load(torch, io.BytesIO(received) if received is not None
                                  else os.path.join(path, STATE_FILE), map_location)
        else:
            import torch.distributed.checkpoint as dcp
            payload = torch_load(torch, os.path.join(path, "meta.pt"), map_location)
            dstate = dict(state or {})
            objs = dcp_state(model, optimizer)
            dstate.update(objs)
            dcp.load(dstate, checkpoint_id=path)
            if model is not None:
                try:
                    from torch.distributed.checkpoint.state_dict import set_state_dict
                    if optimizer is not None:
                        set_state_dict(model, optimizer, model_state_dict=dstate["model"],
                                       optim_state_dict=dstate["optimizer"])
                    else:
                        unwrap(model).load_state_dict(dstate["model"], strict=strict)
                except ImportError:
                    unwrap(model).load_state_dict(dstate["model"], strict=strict)
                    if optimizer is not None:
                        optimizer.load_state_dict(dstate["optimizer"])
            model = optimizer = None      # loaded above
            payload.update({k: v for k, v in dstate.items() if k not in objs})
        if model is not None and "model" in payload:
            unwrap(model).load_state_dict(payload["model"], strict=strict)
        if optimizer is not None and "optimizer" in payload:
            optimizer.load_state_dict(payload["optimizer"])
        if scheduler is not None and payload.get("scheduler") is not None:
            scheduler.load_state_dict(payload["scheduler"])
        if sampler is not None and payload.get("sampler") is not None and hasattr(sampler, "load_state_dict"):
            sampler.load_state_dict(payload["sampler"])
        if rng and payload.get("rng"):
            set_rng_state(payload["rng"], rank=mgr.rank, saved_rank=payload.get("saved_rank", 0))
        step = int(payload.get("step", m.get("step", 0)))
        mgr.agent.note_restore(cid, step)
        LOG.info("lifeline: restored %s (step %d, saved at world size %s, now %s)", cid, step,
                 payload.get("world_size"), mgr.world_size)
        return Restored(cid, step, payload.get("world_size", m.get("worldSize")), path, payload, m)

    def _agree(self, dist: Any, checkpoint_id: str | None,
               allow_suspect: bool = False) -> tuple[Manifest | None, bytes | None]:
        """Directories on the nodes' own disks, a job on several nodes: every rank restores the same checkpoint,
        ``checkpoint_id`` or the newest one any node holds; a node that lacks it receives it from the first rank
        whose node holds it, and keeps a copy. Returns (manifest, state bytes received or None), or (None, None)."""
        mgr = self._manager
        has = None
        if mgr.local_rank == 0:
            m = mgr.files.choice(checkpoint_id, allow_suspect)
            if m is not None and m.get("format", FORMAT_TORCH) == FORMAT_TORCH and not m.get("broken"):
                has = {"id": m.get("checkpointId") or os.path.basename(m["path"]), "step": int(m["step"]),
                       "created": m.get("created") or ""}
        everyone = all_gather_json(dist, {"node": mgr.node, "lead": mgr.local_rank == 0, "has": has})
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
            if mgr.rank == src:
                path = mgr.path_of(best["id"])
                with open(os.path.join(path, MANIFEST), "rb") as f:
                    manifest = f.read()
                with open(os.path.join(path, STATE_FILE), "rb") as f:
                    state = f.read()
            data = {"manifest": broadcast_bytes(dist, manifest, src), "state": broadcast_bytes(dist, state, src)}
            if mgr.node not in holders:
                got: Manifest = json.loads(data["manifest"].decode("utf-8"))
                want = got.get("files", {}).get(STATE_FILE, {}).get("sha256")
                if hashlib.sha256(data["state"]).hexdigest() != want:
                    raise ValueError("checkpoint %s arrived from another node damaged (checksum mismatch)"
                                     % best["id"])
                if mgr.local_rank == 0:
                    mgr.files.keep_received(best["id"], data)
                got["path"] = mgr.path_of(best["id"])
                LOG.info("lifeline: checkpoint %s (step %s) received from rank %d: this node had %s", best["id"],
                         best["step"], src, "an older one" if any(everyone[r]["node"] == mgr.node for r, _ in offers)
                         else "none")
                return got, data["state"]
        path = mgr.path_of(best["id"])
        m = mgr.files.read_manifest(path)
        if m is None:
            raise FileNotFoundError("checkpoint %s went missing from %s during the restore" % (best["id"], path))
        m["path"] = path
        return m, None
