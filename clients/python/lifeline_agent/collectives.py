"""Bytes and JSON between the ranks over torch.distributed. torch's object collectives (all_gather_object,
broadcast_object_list) need numpy; these move bytes through plain uint8 tensors, on the device the process group's
backend wants. torch is imported by the functions, and the process group is the caller's (``dist``)."""

from __future__ import annotations

import ctypes
import json
from typing import Any


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
