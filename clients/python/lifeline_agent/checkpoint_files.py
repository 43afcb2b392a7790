"""Checkpoints on disk: one directory per checkpoint under a directory of them, written atomically, read back and
verified against their manifests, the oldest pruned (the layout: see :mod:`lifeline_agent.checkpoint`)."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import socket
import threading
import time
from typing import TYPE_CHECKING, Any, BinaryIO, Callable, Dict, Mapping, cast

from ._util import LOG, rfc3339, safe_name
from .checkpoint_guard import NoSpaceError, disk_space, is_no_space
from .checkpoint_state import CheckpointInfo, Manifest

if TYPE_CHECKING:
    from .config import Config

MANIFEST = "manifest.json"
STATE_FILE = "state.pt"
FORMAT_TORCH = "torch"
FORMAT_DCP = "dcp"
_CHUNK = 1 << 20


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


class CheckpointDirectory:
    """The checkpoints in ``directory`` as ``node`` (rank ``rank`` of ``world_size``) writes and reads them, in format
    ``fmt``; their manifests name the run of ``config``. ``on_verified(checkpoint_id, ok, checksum)`` hears of every
    verification that is to be reported."""

    def __init__(self, directory: str, node: str, rank: int, world_size: int, fmt: str, config: Config,
                 on_verified: Callable[[str, bool, str | None], None]) -> None:
        self.directory = directory
        self.node = node
        self.rank = rank
        self.world_size = world_size
        self.format = fmt
        self.config = config
        self._on_verified = on_verified
        self._shared_with: set[str] = set()  # nodes seen writing the same checkpoint into this directory
        self._verified: dict[str, tuple[float | None, bool, str | None]] = {}
        #                                  path -> (mtime of the manifest, ok, checksum)
        self._lock = threading.Lock()
        self.last_bytes: int | None = None   # the size of this process's last checkpoint written here

    def path_of(self, checkpoint_id: str) -> str:
        return os.path.join(self.directory, safe_name(checkpoint_id))

    # ------------------------------------------------------------------ writing
    def write(self, cid: str, step: int, payload: dict[str, Any] | bytes, dstate: dict[str, Any] | None, t0: float,
              reason: str, trust: Mapping[str, Any] | None = None) -> CheckpointInfo:
        """Writes checkpoint ``cid`` atomically: ``payload`` (``torch.save``'s, or bytes it made already) as
        ``state.pt``, or, in the dcp format, ``dstate`` as shards (a collective) and the rest of ``payload`` as
        ``meta.pt``; the manifest last, then the directory renamed into place. ``t0``: when the save began.
        ``trust``: the loss at the save and the verdict on it, kept in the manifest (see :mod:`lifeline_agent.trust`).
        A file system that fills during the write raises :class:`NoSpaceError` once the temporary directory is gone:
        nothing already in place changes."""
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
                meta = {k: v for k, v in cast(Dict[str, Any], payload).items() if k not in ("model", "optimizer")}
                dcp.save(dict(dstate or {}), checkpoint_id=tmp)
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
                "runId": self.config.run_id, "restartCount": self.config.restart_count,
                "launch": self.config.launch,
                "host": socket.gethostname(), "node": self.node, "shards": shards,
            }
            if trust:
                manifest.update(trust)
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
        except BaseException as e:
            shutil.rmtree(tmp, ignore_errors=True)
            if is_no_space(e) and not isinstance(e, NoSpaceError):
                space = disk_space(self.directory)
                raise NoSpaceError(self.directory, space[0] if space else None, None, during_write=True) from e
            raise
        size = sum(f["bytes"] for f in files.values())
        self.last_bytes = size
        return CheckpointInfo(cid, step, path=final, uri=file_uri(final), bytes_=size, checksum=checksum,
                              world_size=self.world_size, shards=shards, duration=time.monotonic() - t0,
                              reason=reason)

    def _peer_copy(self, final: str, cid: str) -> Manifest | None:
        """The manifest at ``final`` when another node wrote the same checkpoint there (the directory is shared by
        the nodes although not declared durable), else None."""
        m = self.read_manifest(final) if os.path.isdir(final) else None
        if m is None or m.get("checkpointId") != cid or m.get("node", self.node) == self.node:
            return None
        if m["node"] not in self._shared_with:
            self._shared_with.add(m["node"])
            LOG.warning("lifeline: node %s wrote checkpoint %s into %s as well: the nodes share this directory; "
                        "declare CheckpointManager(%r, durable=True) so that Lifeline counts it and one node writes",
                        m["node"], cid, self.directory, self.directory)
        return m


    # ------------------------------------------------------------------ reading
    def read_manifest(self, path: str) -> Manifest | None:
        """The manifest of the checkpoint at ``path`` when it is readable and whole, else None."""
        try:
            with open(os.path.join(path, MANIFEST), "rb") as f:
                m = json.loads(f.read().decode("utf-8"))
            if isinstance(m, dict) and isinstance(m.get("step"), int) and isinstance(m.get("files"), dict):
                return m
        except (OSError, ValueError, UnicodeDecodeError):
            pass
        return None

    def manifests(self) -> list[Manifest]:
        """Every checkpoint directory with a readable manifest, newest step first (unverified)."""
        out: list[Manifest] = []
        try:
            names = os.listdir(self.directory)
        except OSError:
            return out
        for n in names:
            if n.startswith(".") or ".old-" in n:     # temporary, or a stale copy being replaced
                continue
            p = os.path.join(self.directory, n)
            if not os.path.isdir(p):
                continue
            m = self.read_manifest(p)
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
        """Reads a checkpoint back and compares its files with the manifest; tells ``on_verified`` (which reports
        trainer.checkpoint.verified) unless ``emit`` is False. Returns (ok, checksum found)."""
        path = path or self.path_of(checkpoint_id or "")
        m = self.read_manifest(path)
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
            self._on_verified(cid, ok, found)
        return ok, found

    def known_ok(self, path: str) -> bool | None:
        """What the last verification of ``path`` found, while its manifest is unchanged; None: not verified."""
        with self._lock:
            v = self._verified.get(path)
        if v is None:
            return None
        try:
            mtime = os.path.getmtime(os.path.join(path, MANIFEST))
        except OSError:
            return False
        return v[1] if v[0] == mtime else None

    def size_of_last(self) -> int | None:
        """The size of the last checkpoint: this process's last one written here, else the newest one in the
        directory (its manifest's files); None when there is none."""
        if self.last_bytes is not None:
            return self.last_bytes
        for m in self.manifests():
            if not m.get("broken") and m.get("files"):
                try:
                    return sum(int(f.get("bytes", 0)) for f in m["files"].values())
                except (TypeError, ValueError, AttributeError):
                    continue
        return None

    def latest(self, verify: bool = True, allow_suspect: bool = True) -> Manifest | None:
        """The manifest of the newest intact checkpoint (verified by reading it back unless ``verify`` is False),
        skipping corrupt ones (reported as verified ok:false) and, unless ``allow_suspect``, suspect ones (saved
        after a non-finite loss or a loss spike: see :mod:`lifeline_agent.trust`); None when there is none."""
        skipped = []
        for m in self.manifests():
            if m.get("broken"):
                continue
            if not allow_suspect and suspect(m):
                skipped.append(m)
                continue
            if not verify:
                return m
            known = self.known_ok(m["path"])
            if known is None:
                known, _ = self.verify(m.get("checkpointId"), path=m["path"])
            if known:
                if skipped:
                    LOG.warning("lifeline: skipping %d suspect checkpoint(s) newer than %s: %s", len(skipped),
                                m.get("checkpointId"), _suspects(skipped))
                return m
        if skipped:
            LOG.warning("lifeline: no trusted checkpoint in %s; suspect ones skipped: %s (restore(allow_suspect=True) "
                        "or restore(checkpoint_id=...) takes one)", self.directory, _suspects(skipped))
        return None

    def choice(self, checkpoint_id: str | None, allow_suspect: bool = False) -> Manifest | None:
        """This directory's candidate for a restore: ``checkpoint_id`` when it is here and intact, else (no id
        asked) the newest intact one, trusted unless ``allow_suspect``; None."""
        if checkpoint_id is None:
            return self.latest(allow_suspect=allow_suspect)
        path = self.path_of(checkpoint_id)
        m = self.read_manifest(path)
        if m is None:
            return None
        if self.known_ok(path) is not True and not self.verify(checkpoint_id, path=path)[0]:
            return None
        m["path"] = path
        return m

    def keep_received(self, cid: str, data: Mapping[str, bytes]) -> None:
        """Writes a checkpoint received from another node into this node's directory (atomically, as a save)."""
        final = self.path_of(cid)
        tmp = os.path.join(self.directory, ".tmp-%s-%s-%d" % (safe_name(cid), safe_name(self.node, "node"),
                                                              os.getpid()))
        try:
            space = disk_space(self.directory)
            need = len(data["state"]) + len(data["manifest"])
            if space is not None and space[0] < need:
                raise NoSpaceError(self.directory, space[0], need)
            os.makedirs(tmp, exist_ok=True)
            for name, blob in ((STATE_FILE, data["state"]), (MANIFEST, data["manifest"])):
                with open(os.path.join(tmp, name), "wb") as f:
                    f.write(blob)
                    f.flush()
                    os.fsync(f.fileno())
            fsync_dir(tmp)
            # A stale copy of the same id is moved aside, not removed, until the complete one is in place.
            trash = None
            if os.path.exists(final):
                trash = final + ".old-%s-%d" % (safe_name(self.node, "node"), os.getpid())
                os.replace(final, trash)
            os.replace(tmp, final)
            fsync_dir(self.directory)
            if trash:
                shutil.rmtree(trash, ignore_errors=True)
        except OSError as e:
            shutil.rmtree(tmp, ignore_errors=True)
            LOG.warning("lifeline: could not keep a copy of checkpoint %s received from another node: %s", cid, e)

    # ------------------------------------------------------------------ retention
    def prune(self, keep: int) -> list[str | None]:
        """Keeps the newest ``keep`` intact checkpoints, and the newest trusted one; deletes older ones (and stale
        temporary directories)."""
        removed: list[str | None] = []
        good = 0
        trusted_kept = False
        for m in self.manifests():
            intact = self.known_ok(m["path"]) is not False and not m.get("broken")
            if good >= keep and not (intact and not trusted_kept and not suspect(m)):
                shutil.rmtree(m["path"], ignore_errors=True)
                removed.append(m.get("checkpointId"))
                continue
            # The newest trusted checkpoint stays whatever its age: saves after a NaN must not push it out.
            if intact:
                good += 1
                trusted_kept = trusted_kept or not suspect(m)
        now = time.time()
        try:
            for n in os.listdir(self.directory):
                p = os.path.join(self.directory, n)
                if n.startswith(".tmp-") and now - os.path.getmtime(p) > 3600:
                    shutil.rmtree(p, ignore_errors=True) if os.path.isdir(p) else os.remove(p)
        except OSError:
            pass
        return removed


def suspect(m: Manifest) -> bool:
    """Whether a checkpoint's manifest says it was saved after a non-finite loss or a loss spike."""
    return m.get("trusted") is False


def _suspects(ms: list[Manifest]) -> str:
    return ", ".join("%s (%s)" % (m.get("checkpointId"), m.get("suspectReason")) for m in ms[:5])


def file_uri(path: str) -> str:
    import pathlib
    return pathlib.Path(path).absolute().as_uri() + "/"


def path_of_uri(uri: str) -> str:
    import urllib.parse
    import urllib.request
    return urllib.request.url2pathname(urllib.parse.urlparse(uri).path).rstrip("/")
