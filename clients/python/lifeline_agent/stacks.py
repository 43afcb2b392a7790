"""The Python stacks of a worker's threads, for finding where a hung job is stuck (the capture_stacks command).

Captured from one of the agent's own threads with ``sys._current_frames()``: that works while the training thread is
blocked in a collective, a sleep or I/O, all of which release the GIL. A process frozen with the GIL held (a C call
that never returns) cannot run the agent's threads at all; for it the agent registers :mod:`faulthandler` on a signal
(SIGUSR2 by default, ``LIFELINE_STACKS_SIGNAL``), which writes every thread's stack to a file of the process from the
signal handler itself, in C: ``kill -USR2 <pid>`` and read ``<LIFELINE_STACKS_DIR>/lifeline-stacks-<pid>.txt``.

Stacks name source files and functions (never arguments or local variables); the faulthandler dump is the same.
"""

from __future__ import annotations

import faulthandler
import json
import os
import re
import signal
import sys
import threading
import time
from types import FrameType
from typing import IO, TYPE_CHECKING, Any

from ._util import LOG

if TYPE_CHECKING:
    from .agent import Agent

MAX_THREADS = 64
MAX_FRAMES = 64
MAX_FILE = 256
MAX_FUNCTION = 128
#: The compact JSON of a trainer.stacks event's data stays under this: Lifeline refuses data over 64 KiB.
MAX_DATA = 60 * 1024
AGENT_THREAD_PREFIX = "lifeline-"


def _clean(text: str) -> str:
    # A file name undecodable in UTF-8 comes as lone surrogates, which JSON in UTF-8 cannot carry (the whole batch
    # would fail to encode); NUL is refused by Lifeline.
    return text.encode("utf-8", "replace").decode("utf-8").replace("\x00", "?")


def _clip_file(name: str) -> str:
    # The end of a path says most (the file, its package): that is what is kept.
    name = _clean(name)
    return name if len(name) <= MAX_FILE else "..." + name[-(MAX_FILE - 3):]


def _frames(frame: FrameType | None) -> list[dict[str, Any]]:
    """The innermost ``MAX_FRAMES`` frames from ``frame`` outwards, returned outermost first."""
    out: list[dict[str, Any]] = []
    f = frame
    while f is not None and len(out) < MAX_FRAMES:
        code = f.f_code
        out.append({"file": _clip_file(code.co_filename), "line": int(f.f_lineno or 0),
                    "function": _clean(str(getattr(code, "co_qualname", code.co_name)))[:MAX_FUNCTION]})
        f = f.f_back
    out.reverse()
    return out


def capture() -> list[dict[str, Any]]:
    """Every thread's stack: ``{"name", "main", "frames": [{"file", "line", "function"}, ...]}`` (outermost frame
    first), ``"agent": true`` on the agent's own threads; the main thread first, the agent's threads last, at most
    ``MAX_THREADS``."""
    current = sys._current_frames()
    known = {t.ident: t for t in threading.enumerate()}
    main = threading.main_thread().ident
    threads: list[dict[str, Any]] = []
    for ident, frame in current.items():
        t = known.get(ident)
        name = t.name if t is not None else "thread-%d" % ident
        entry: dict[str, Any] = {"name": _clean(name)[:MAX_FUNCTION], "main": ident == main, "frames": _frames(frame)}
        if name.startswith(AGENT_THREAD_PREFIX):
            entry["agent"] = True
        threads.append(entry)
    threads.sort(key=lambda e: (not e["main"], bool(e.get("agent")), e["name"]))
    return threads[:MAX_THREADS]


def fit(threads: list[dict[str, Any]], budget: int = MAX_DATA) -> list[dict[str, Any]]:
    """``threads`` cut down until their JSON takes at most ``budget`` characters: first fewer frames per thread (the
    innermost kept: where it is stuck), then fewer threads (the agent's go first, the main thread last)."""
    def size(ts: list[dict[str, Any]]) -> int:
        return len(json.dumps(ts, separators=(",", ":"), ensure_ascii=False))
    if size(threads) <= budget:
        return threads
    out = [dict(t) for t in threads]
    keep = MAX_FRAMES
    while keep > 4 and size(out) > budget:
        keep //= 2
        for t in out:
            t["frames"] = t["frames"][-keep:]
    while len(out) > 1 and size(out) > budget:
        out.pop()
    if size(out) > budget:
        out[0]["frames"] = out[0]["frames"][-1:]
    return out


class StackReporter:
    """Sends this rank's stacks as one trainer.stacks event, through the agent's sender."""

    def __init__(self, agent: Agent) -> None:
        self._agent = agent

    def send(self, request_id: str) -> dict[str, Any]:
        """Captures now (from the calling thread, one of the agent's) and queues the event; returns it."""
        agent = self._agent
        c = agent.config
        perf = time.perf_counter()
        times = agent.step_times
        phase, _ = agent.phases.current(times.first, times.last)
        threads = fit(capture())
        event = agent.events.stacks(agent.run_key, request_id, c.rank, threads, via="frames",
                                    local_rank=c.local_rank, node=c.node, pid=os.getpid(), step=agent.state.step,
                                    phase=phase, since_step_seconds=times.since_step(perf))
        agent.emit(event)
        agent.state.counters["stacks_sent"] += 1
        LOG.info("lifeline: stacks of %d thread(s) captured for %s", len(threads), request_id)
        return event


def dump_path(directory: str, pid: int | None = None) -> str:
    """The file the faulthandler dump of process ``pid`` (this one by default) goes to."""
    return os.path.join(directory, "lifeline-stacks-%d.txt" % (os.getpid() if pid is None else pid))


class FaultDump:
    """faulthandler registered on ``signal_name``: every thread's stack appended to :attr:`path` on that signal, by
    the interpreter's C handler (it needs no Python thread to run). Not installed when the signal already has a
    handler of its own (the script's, or the agent's for LIFELINE_SIGNALS)."""

    def __init__(self, signal_name: str | None, directory: str) -> None:
        self.signum: int | None = None
        self.path: str | None = None
        self._file: IO[str] | None = None
        if not signal_name:
            return
        signum = getattr(signal, signal_name, None)
        if not isinstance(signum, int) or not hasattr(faulthandler, "register"):
            LOG.warning("lifeline: no signal %s for stack dumps on this platform", signal_name)
            return
        try:
            if signal.getsignal(signum) not in (signal.SIG_DFL, None):
                LOG.warning("lifeline: %s has a handler already; no faulthandler stack dumps on it", signal_name)
                return
        except ValueError:
            return
        path = dump_path(directory)
        try:
            # Appended to: a reader notes the size, signals, and reads what came after.
            f = open(path, "a", encoding="utf-8")
            faulthandler.register(signum, file=f, all_threads=True, chain=False)
        except (OSError, RuntimeError, ValueError) as e:
            LOG.warning("lifeline: cannot register stack dumps on %s to %s: %s", signal_name, path, e)
            return
        self.signum, self.path, self._file = signum, path, f

    def close(self) -> None:
        if self.signum is not None:
            try:
                faulthandler.unregister(self.signum)
            except (RuntimeError, ValueError):
                pass
            self.signum = None
        if self._file is not None:
            self._file.close()
            self._file = None
            # No dump was ever asked for: leave no empty file per worker behind.
            try:
                if self.path is not None and os.path.getsize(self.path) == 0:
                    os.remove(self.path)
            except OSError:
                pass


# ---------------------------------------------------------------------- a silent local peer
#: Seconds the local rank 0 gives its node's peers to send their own stacks before it signals them.
PEER_WAIT = 5.0
#: Seconds it waits for a signalled peer's dump to be written.
PEER_DUMP_WAIT = 2.0
_THREAD_LINE = re.compile(r"^(Current thread|Thread) (0x[0-9a-fA-F]+)")
_FRAME_LINE = re.compile(r'^\s+File "(.*)", line (\d+) in (.*)$')


def process_start(pid: int) -> str | None:
    """The start time of process ``pid`` (Linux, in clock ticks since boot): with the pid, what tells a process apart
    from a later one that reuses its pid. None where it cannot be read."""
    try:
        with open("/proc/%d/stat" % pid, "r") as f:
            stat = f.read()
    except OSError:
        return None
    # The command name (field 2) is in parentheses and may hold spaces: count the fields after it.
    fields = stat[stat.rfind(")") + 2:].split()
    return fields[19] if len(fields) > 19 else None


def whoami(agent: Agent) -> dict[str, Any]:
    """What this rank publishes for its node's local rank 0: enough to signal it and read its dump."""
    dump = agent.fault_dump
    return {"rank": agent.config.rank, "localRank": agent.config.local_rank, "pid": os.getpid(),
            "start": process_start(os.getpid()), "main": threading.main_thread().ident,
            "path": dump.path if dump is not None and dump.signum is not None else None,
            "signal": dump.signum if dump is not None else None}


def parse_dump(text: str, main_ident: int | None) -> list[dict[str, Any]]:
    """faulthandler's text as ``threads`` (names are the thread ids: faulthandler prints no names)."""
    threads: list[dict[str, Any]] = []
    frames: list[dict[str, Any]] | None = None
    for line in text.splitlines():
        m = _THREAD_LINE.match(line)
        if m:
            ident = int(m.group(2), 16)
            frames = []
            threads.append({"name": "thread-%s" % m.group(2), "main": ident == main_ident, "frames": frames})
            continue
        f = _FRAME_LINE.match(line)
        if f and frames is not None:
            frames.append({"file": _clip_file(f.group(1)), "line": int(f.group(2)),
                           "function": _clean(f.group(3))[:MAX_FUNCTION]})
    for t in threads:
        t["frames"] = list(reversed(t["frames"]))[-MAX_FRAMES:]   # faulthandler prints the innermost first
    threads.sort(key=lambda e: not e["main"])
    return threads[:MAX_THREADS]


def dump_peer(agent: Agent, peer: dict[str, Any], request_id: str, wait: float = PEER_DUMP_WAIT) -> bool:
    """Signals a local peer that did not send its stacks, reads what its faulthandler wrote and sends it on its
    behalf (``via: "faulthandler"``). Only a process that is still the one that published ``peer`` is signalled:
    a pid reused by another process would be killed by the signal. True when a dump was sent."""
    pid, path, signum = peer.get("pid"), peer.get("path"), peer.get("signal")
    if not isinstance(pid, int) or not isinstance(path, str) or not isinstance(signum, int):
        return False
    start = peer.get("start")
    if start is None or process_start(pid) != start:
        return False
    try:
        before = os.path.getsize(path)
        os.kill(pid, signum)
    except OSError as e:
        LOG.info("lifeline: cannot signal rank %s (pid %d) for its stacks: %s", peer.get("rank"), pid, e)
        return False
    end = time.monotonic() + wait
    size = before
    while time.monotonic() < end:
        time.sleep(0.1)
        now = os.path.getsize(path)
        if now > before and now == size:
            break           # written, and no longer growing
        size = now
    if size <= before:
        return False
    with open(path, "r", encoding="utf-8", errors="replace") as f:
        f.seek(before)
        text = f.read()
    c = agent.config
    threads = fit(parse_dump(text, peer.get("main")), MAX_DATA - 33 * 1024)
    rank = int(peer.get("rank") or 0)
    local = peer.get("localRank")
    agent.emit(agent.events.stacks(agent.run_key, request_id, rank, threads, via="faulthandler",
                                   local_rank=int(local) if isinstance(local, int) else None, node=c.node, pid=pid,
                                   text=_clean(text)))
    agent.state.counters["stacks_sent_for_peers"] += 1
    LOG.warning("lifeline: rank %d (pid %d) did not answer capture_stacks; sent its faulthandler dump", rank, pid)
    return True
