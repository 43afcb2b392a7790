"""Cross-rank agreement on the step at which every rank saves (and holds, or restores).

All ranks of a job must save at the same step, or a sharded checkpoint is inconsistent and ranks that hold would
wait for each other forever. Only global rank 0 receives commands, so rank 0 decides, and tells the others.

Protocol (see docs/trainer-agent.md, "How the ranks agree"):

* The keys live under ``lifeline/<run>/<generation>/`` in torchrun's TCP store (MASTER_ADDR:MASTER_PORT, over
  the coordinator's own connection). The generation is agreed once per worker group, at the first step: rank 0
  draws a random number and broadcasts it over the default process group (one tiny collective, once). Restart
  counts cannot serve: each torchrun agent counts its own restarts, so a node that joins later has another count
  than the survivors. Without an initialised process group the generation is MASTER_ADDR:MASTER_PORT and the world
  size, which every rank of a group shares. So a restarted or resized group never reads an older group's plans.
* Rank 0 publishes a *plan* ``{seq, step S, reason, hold, ...}`` under ``<prefix>/plan/<seq>``, with S a little
  ahead of its current step (``agree_lead`` seconds of measured step time, at least 2 steps).
* Every other rank has a thread that polls for the next plan (one non-blocking ``check`` per poll). On reading it,
  it first makes its training thread watch step S, then looks at its current step: still below S, it confirms
  ``ok`` (an atomic counter), otherwise ``late``.
* Every rank that reaches S (its first step >= S) waits until all ranks have answered (normally long done) and
  acts on the plan only when every rank said ``ok``; otherwise all skip it alike and rank 0 plans again further
  ahead. So either all ranks save at S or none does.

The training thread's cost per step is one integer comparison (``step < attention``); everything else runs in the
coordination thread. One world (a single process) needs no store: a request is due at the next step.
"""

from __future__ import annotations

import datetime
import importlib
import json
import math
import random
import threading
import time
from typing import TYPE_CHECKING, Any, Callable, Iterable, Protocol, Sequence

from . import stacks
from ._util import LOG, safe_name
from .state import INF

if TYPE_CHECKING:
    from .agent import Agent
REASON_ORDER = {"periodic": 0, "command": 1, "restore": 1, "prepare_exit": 2, "signal": 3}
#: ``published(note)``: a broadcast reached the store (see :meth:`Coordinator.broadcast`).
Published = Callable[[str], None]
#: Seconds rank 0 waits, before it exits on restart_workers, for the other ranks to have read the command (the store
#: may be served from its process).
RESTART_SEEN_WAIT = 5.0


class Store(Protocol):
    """The part of ``torch.distributed.TCPStore`` the coordinator uses."""

    def add(self, key: str, amount: int) -> int: ...

    def set(self, key: str, value: str | bytes) -> None: ...

    def get(self, key: str) -> bytes: ...

    def check(self, keys: list[str]) -> bool: ...


class Plan:
    """What every rank does at ``step``: ``kind`` "save" (then hold when ``hold``) or "restore"."""

    def __init__(self, seq: int, step: int, kind: str = "save", reason: str = "command", hold: bool = False,
                 commands: Iterable[str] = (), deadline: str | None = None, checkpoint_id: str | None = None,
                 uri: str | None = None, storage: str | None = None) -> None:
        self.seq = seq
        self.step = step
        self.kind = kind
        self.reason = reason
        self.hold = hold
        self.commands = list(commands)
        self.deadline = deadline          # RFC 3339 text or None
        self.checkpoint_id = checkpoint_id
        self.uri = uri
        self.storage = storage            # "durable": the save must outlive the loss of a node; None: any
        self.decision: bool | None = None  # True: act; False: skip (some rank was late or silent)
        self.decided = threading.Event()
        self.note = ""

    def encode(self) -> str:
        return json.dumps({"seq": self.seq, "step": self.step, "kind": self.kind, "reason": self.reason,
                           "hold": self.hold, "commands": self.commands, "deadline": self.deadline,
                           "checkpointId": self.checkpoint_id, "uri": self.uri, "storage": self.storage})

    @classmethod
    def decode(cls, raw: str | bytes) -> Plan:
        d = json.loads(raw.decode("utf-8") if isinstance(raw, bytes) else raw)
        return cls(d["seq"], d["step"], d.get("kind", "save"), d.get("reason", "command"), bool(d.get("hold")),
                   d.get("commands") or (), d.get("deadline"), d.get("checkpointId"), d.get("uri"), d.get("storage"))

    def decide(self, ok: bool, note: str = "") -> None:
        if self.decision is None:
            self.decision = ok
            self.note = note
            self.decided.set()

    def __repr__(self) -> str:
        return "Plan(#%s %s at step %s, %s%s)" % (self.seq, self.kind, self.step, self.reason,
                                                   ", hold" if self.hold else "")


class Wish:
    """Something rank 0 was asked to get done at an agreed step."""

    def __init__(self, kind: str = "save", reason: str = "command", hold: bool = False, command_id: str | None = None,
                 deadline: str | None = None, checkpoint_id: str | None = None, uri: str | None = None,
                 storage: str | None = None) -> None:
        self.kind = kind
        self.reason = reason
        self.hold = hold
        self.command_ids = [command_id] if command_id else []
        self.deadline = deadline
        self.checkpoint_id = checkpoint_id
        self.uri = uri
        self.storage = storage


def merge_saves(requests: Sequence[Wish]) -> tuple[str, bool, list[str], str | None, str | None]:
    """One save for several requests: the strongest reason, hold when any asks, every command, the first deadline,
    storage that outlives a node when any asks."""
    reason = max((r.reason for r in requests), key=lambda x: REASON_ORDER.get(x, 1))
    commands: list[str] = []
    for r in requests:
        commands.extend(r.command_ids)
    deadlines = [r.deadline for r in requests if r.deadline]
    storage = "durable" if any(r.storage == "durable" for r in requests) else None
    return reason, any(r.hold for r in requests), commands, (min(deadlines) if deadlines else None), storage


def broadcast_generation(world: int, rank: int, restart_count: int,
                         launch_tag: str | None) -> tuple[str, int, str | None] | None:
    """Rank 0's generation (a random number), restart count and launch tag on every rank, in one tiny broadcast over
    the default process group; None when there is no process group of this worker group's size (or no torch)."""
    try:
        import torch
        import torch.distributed as dist
    except ImportError:
        return None
    if not (dist.is_available() and dist.is_initialized() and dist.get_world_size() == world):
        return None
    device = "cpu"
    if dist.get_backend() == "nccl":
        device = "cuda:%d" % torch.cuda.current_device()
    t = torch.tensor([random.SystemRandom().getrandbits(62), restart_count, int(launch_tag, 16) if launch_tag else -1]
                     if rank == 0 else [0, 0, 0], dtype=torch.int64, device=device)
    dist.broadcast(t, src=0)
    launch = int(t[2].item())
    return "g%x" % int(t[0].item()), int(t[1].item()), "%08x" % launch if launch >= 0 else None


class StepRate:
    """The training thread's recent pace, sampled by the coordination thread: how many steps ahead a plan must be
    for every rank to learn of it in time."""

    def __init__(self) -> None:
        self._samples: list[tuple[float, int]] = []   # (time, step), the newest 64

    def sample(self, now: float, step: int) -> None:
        s = self._samples
        if s and step < s[-1][1]:
            del s[:]            # a restore went back in time: measure afresh
        if not s or step != s[-1][1]:
            s.append((now, step))
            if len(s) > 64:
                del s[:-64]

    def seconds(self) -> float | None:
        """Recent time per step (EWMA-free: the slope over the recent samples); None when unknown."""
        s = self._samples
        if len(s) < 2 or s[-1][1] <= s[0][1]:
            return None
        return (s[-1][0] - s[0][0]) / float(s[-1][1] - s[0][1])

    def lead_steps(self, lead_seconds: float, factor: float) -> int:
        """Steps in ``lead_seconds * factor`` at the recent pace (at least 2; ``4 * factor`` at an unknown pace)."""
        per_step = self.seconds()
        if per_step is None or per_step <= 0:
            return max(2, int(4 * factor))
        return max(2, int(math.ceil(lead_seconds * factor / per_step)) + 1)


class Coordinator:
    """Base: the pending plans of this rank and the training thread's ``attention`` step."""

    kind = "base"

    def __init__(self, agent: Agent) -> None:
        self.agent = agent
        self._lock = threading.Lock()
        self._plans: list[Plan] = []        # published/learned plans not yet finished, by seq
        self._requests: list[Wish] = []     # rank 0: requests not yet planned
        self._seq = 0

    # ---------------------------------------------------------------- API used by the agent
    def start(self) -> Coordinator:
        return self

    def stop(self) -> None:
        pass

    def request(self, req: Wish) -> str | None:
        """Rank 0 only: asks for an agreed step. Returns None when accepted, else why not."""
        with self._lock:
            self._requests.append(req)
        self.poke()
        return None

    def can_coordinate(self) -> bool:
        return True

    def broadcast(self, message: dict[str, Any], published: Published) -> None:
        """Rank 0 only: has every rank act on ``message`` (a command that needs no agreed step: capture_stacks,
        restart_workers) at once, in one of the agent's threads, whatever its training thread is doing. Calls
        ``published(note)`` once every rank can read it (``note``: what limits its reach, "" when none), then acts
        on it in this rank too."""
        published("")
        self.agent.handler.act(message)

    def group_restart(self) -> int | None:
        """Rank 0's restart count, once known: the incarnation every rank names checkpoints by."""
        return None

    def group_launch_known(self) -> bool:
        """Whether rank 0's launch (see :meth:`group_launch`) is known yet."""
        return False

    def group_launch(self) -> str | None:
        """Rank 0's launch tag (8 hex digits, or None when rank 0 has no launch), once known: with the restart count,
        what every rank names checkpoints by."""
        return None

    def due(self, step: int) -> Plan | None:
        """Training thread, slow path: the plan to act on at ``step``, or None."""
        raise NotImplementedError

    def finished(self, plan: Plan) -> None:
        with self._lock:
            if plan in self._plans:
                self._plans.remove(plan)
            self._update_attention()

    def pending_requests(self) -> list[Wish | Plan]:
        with self._lock:
            return list(self._requests) + [p for p in self._plans]

    def signal(self) -> None:
        """Training thread (signal handler): this rank wants an emergency save soon."""

    def poke(self) -> None:
        pass

    def _update_attention(self) -> None:
        """Caller holds the lock."""
        a = min([p.step for p in self._plans], default=INF)
        self.agent.state.set_attention("plan", a)


class LocalCoordinator(Coordinator):
    """A world of one: a request is due at the very next step."""

    kind = "local"

    def poke(self) -> None:
        self.agent.state.set_attention("plan", 0)

    def signal(self) -> None:
        self.request(Wish(reason="signal", hold=False))

    def due(self, step: int) -> Plan | None:
        with self._lock:
            if self._plans:
                return self._plans[0]
            if not self._requests:
                self._update_attention()
                return None
            saves = [r for r in self._requests if r.kind == "save"]
            if saves:
                self._requests = [r for r in self._requests if r.kind != "save"]
                reason, hold, commands, deadline, storage = merge_saves(saves)
                plan = Plan(self._seq, step, "save", reason, hold, commands, deadline, storage=storage)
            else:
                r = self._requests.pop(0)
                plan = Plan(self._seq, step, r.kind, r.reason, r.hold, r.command_ids, r.deadline,
                            r.checkpoint_id, r.uri)
            self._seq += 1
            plan.decide(True)
            self._plans.append(plan)
            return plan

    def finished(self, plan: Plan) -> None:
        with self._lock:
            if plan in self._plans:
                self._plans.remove(plan)
            self.agent.state.set_attention("plan", 0 if self._requests else INF)


class UnavailableCoordinator(Coordinator):
    """Several ranks but no store to agree through (no torch, no MASTER_ADDR): commands are refused, except the ones
    rank 0 can carry out alone."""

    kind = "unavailable"

    def __init__(self, agent: Agent, why: str) -> None:
        Coordinator.__init__(self, agent)
        self.why = why

    def can_coordinate(self) -> bool:
        return False

    def broadcast(self, message: dict[str, Any], published: Published) -> None:
        published("rank 0 only: the other ranks cannot be reached (%s)" % self.why)
        self.agent.handler.act(message)

    def request(self, req: Wish) -> str | None:
        return "the ranks cannot agree on a step: " + self.why

    def due(self, step: int) -> Plan | None:
        self.agent.state.set_attention("plan", INF)
        return None


def for_agent(agent: Agent, store: Store | None = None) -> Coordinator:
    """The coordinator of ``agent``'s worker group: a world of one needs none; several ranks agree through
    torchrun's TCP store (``store``: one to use instead, in tests), or cannot agree at all without it."""
    c = agent.config
    if c.world_size <= 1:
        return LocalCoordinator(agent)
    if store is None and (not c.master_addr or not c.master_port):
        return UnavailableCoordinator(agent, "MASTER_ADDR/MASTER_PORT are not set (not run by torchrun?)")
    if store is None:
        try:
            importlib.import_module("torch.distributed")
        except Exception as e:  # noqa: BLE001
            return UnavailableCoordinator(agent, "torch.distributed is not available (%s)" % e)
    coordinator = StoreCoordinator(agent, c.master_addr, c.master_port, StoreCoordinator.key_base(c.run_id),
                                   c.world_size, c.rank, poll=c.coord_poll, lead_seconds=c.agree_lead,
                                   agree_timeout=c.agree_timeout, store=store)
    agent.state.set_attention("establish", 0)     # the first step agrees the key generation
    return coordinator


class StoreCoordinator(Coordinator):
    """Several ranks: plans go through torchrun's TCP store (see the module's documentation)."""

    kind = "store"

    def __init__(self, agent: Agent, host: str | None, port: int | None, base: str, world_size: int, rank: int,
                 poll: float = 0.05, lead_seconds: float = 0.5, agree_timeout: float = 60.0, store: Store | None = None,
                 clock: Callable[[], float] = time.monotonic, generation: str | None = None) -> None:
        Coordinator.__init__(self, agent)
        self.host = host
        self.port = port
        self.base = base.rstrip("/") + "/"
        self.generation: str | None = None
        self.prefix: str | None = None
        self._group_restart: int | None = None
        self._group_launch: str | None = None
        self._group_launch_known = False
        self._established = threading.Event()
        if generation is not None:
            self._set_generation(generation)
        self.world = world_size
        self.rank = rank
        # Big worlds poll less often (one store request per rank per poll) and plan further ahead.
        self.poll = max(poll, 0.05 * world_size / 64.0)
        self.lead_seconds = max(lead_seconds, 4 * self.poll)
        self.agree_timeout = agree_timeout
        self._store = store
        self._clock = clock
        self._stop = threading.Event()
        self._wake = threading.Event()
        self._thread: threading.Thread | None = None
        self._next_seq = 0          # followers: the next plan to look for
        self._inflight: Plan | None = None  # rank 0: the plan published and not finished
        self._lead_factor = 1.0
        self._signal_pending = False
        self._signal_sent = False
        self._sigreq_seen = 0
        self._restart_published = False
        self._rate = StepRate()
        self._connected = threading.Event()
        self.error: str | None = None
        # Broadcasts: rank 0's waiting to be published; a follower's next one to look for (None: not read yet).
        self._outbox: list[tuple[dict[str, Any], Published]] = []
        self._cmd_next: int | None = None
        self._cmd_due = 0.0
        self.cmd_poll = max(0.25, self.poll)
        # The local rank 0 of a node of several ranks: capture_stacks requests whose silent peers it signals, when.
        self._announced = False
        self._peer_checks: list[tuple[float, int, str]] = []
        self.peer_wait = stacks.PEER_WAIT

    @staticmethod
    def key_base(run_id: str) -> str:
        return "lifeline/%s/" % safe_name(run_id, "none")

    def group_restart(self) -> int | None:
        return self._group_restart

    def group_launch_known(self) -> bool:
        return self._group_launch_known

    def group_launch(self) -> str | None:
        return self._group_launch

    def _learn_launch(self, tag: str | None) -> None:
        self._group_launch = tag or None
        self._group_launch_known = True

    def _set_generation(self, generation: str) -> None:
        self.generation = generation
        self.prefix = self.base + generation + "/"
        self._established.set()

    def establish(self) -> None:
        """Training thread, first step: agrees the generation of this worker group (see the module's doc)."""
        if self._established.is_set():
            return
        config = self.agent.config
        agreed = None
        try:
            agreed = broadcast_generation(self.world, self.rank, config.restart_count, config.launch_tag)
        except Exception as e:  # noqa: BLE001
            LOG.warning("lifeline: could not agree a generation over the process group (%s); using the store "
                        "address", e)
        if agreed is not None:
            gen, self._group_restart, launch = agreed
            self._learn_launch(launch)
        else:
            gen = "s%s-%s-w%d" % (safe_name(self.host), self.port, self.world)
            if self.rank == 0:
                self._group_restart = self.agent.config.restart_count
                self._learn_launch(self.agent.config.launch_tag)
        self._set_generation(gen)
        self.agent.state.set_attention("establish", INF)
        LOG.info("lifeline: coordination keys under %s", self.prefix)
        self._wake.set()

    def start(self) -> StoreCoordinator:
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="lifeline-coordination", daemon=True)
            self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        self._wake.set()

    def poke(self) -> None:
        self._wake.set()

    def signal(self) -> None:
        self._signal_pending = True
        self._wake.set()

    def broadcast(self, message: dict[str, Any], published: Published) -> None:
        with self._lock:
            self._outbox.append((message, published))
        self._wake.set()

    # ---------------------------------------------------------------- store
    def _connect(self) -> Store:
        if self._store is not None:
            return self._store
        import torch.distributed as dist  # lazily: torch is optional for the package
        if not self.host or not self.port:
            raise RuntimeError("no address of torchrun's store (MASTER_ADDR, MASTER_PORT)")
        self._store = dist.TCPStore(self.host, int(self.port), None, False,
                                    datetime.timedelta(seconds=max(30.0, self.agree_timeout)),
                                    wait_for_workers=False)
        return self._store

    def _key(self, *parts: object) -> str:
        return (self.prefix or "") + "/".join(str(p) for p in parts)

    # ---------------------------------------------------------------- thread
    def _run(self) -> None:
        backoff = 0.5
        while not self._stop.is_set():
            try:
                self._connect()
                self._connected.set()
                break
            except Exception as e:  # noqa: BLE001
                self.error = str(e)
                LOG.warning("lifeline: cannot reach the rendezvous store %s:%s for coordination (%s); retrying",
                            self.host, self.port, e)
                self._stop.wait(backoff)
                backoff = min(backoff * 2, 10.0)
        # Until the first step agrees the generation, only broadcasts go through (their keys need none): a job that
        # hangs before its first step can still be asked for its stacks, or restarted.
        while not self._stop.is_set() and not self._established.is_set():
            self._guarded(self._command_tick)
            self._wake.wait(self.poll)
            self._wake.clear()
        while not self._stop.is_set():
            self._guarded(self._tick)
            self._wake.wait(self.poll)
            self._wake.clear()

    def _tick(self) -> None:
        self._rate.sample(self._clock(), self.agent.state.step)
        if self.rank == 0:
            self._leader_tick()
        else:
            self._follower_tick()
        self._count_answers()
        self._command_tick()

    def _guarded(self, fn: Callable[[], None]) -> None:
        try:
            fn()
        except Exception as e:  # noqa: BLE001 - keep coordinating; the store may be going away
            self.error = str(e)
            LOG.debug("lifeline: coordination error: %s", e)
            self._stop.wait(0.5)

    # ---------------------------------------------------------------- broadcasts
    # Under the run's base, not the generation's: they must work before the first step. A rank reads the counter
    # when it starts and looks only for newer ones, so a restarted group never acts on an older group's command.
    def _command_tick(self) -> None:
        store = self._connect()
        config = self.agent.config
        if not self._announced and config.local_world_size > 1:
            store.set(self._node_key(config.local_rank), json.dumps(stacks.whoami(self.agent)))
            self._announced = True
        if self._peer_checks:
            self._check_peers(store)
        if self.rank == 0:
            with self._lock:
                outbox, self._outbox = self._outbox, []
            for message, published in outbox:
                seq = store.add(self.base + "cmd/n", 1)
                store.set(self.base + "cmd/%d" % seq, json.dumps(message))
                LOG.info("lifeline: told every rank: %s (#%d)", message.get("kind"), seq)
                published("")
                if message.get("kind") == "restart_workers":
                    code = message.get("exitCode")
                    self.agent.handler.expect_restart(code if isinstance(code, int) and 1 <= code <= 255 else None)
                    self._wait_seen(store, seq, RESTART_SEEN_WAIT)
                self._act(store, seq, message)
            return
        if self._cmd_next is None:
            self._cmd_next = store.add(self.base + "cmd/n", 0) + 1
        now = self._clock()
        if now < self._cmd_due:
            return
        self._cmd_due = now + self.cmd_poll
        key = self.base + "cmd/%d" % self._cmd_next
        if not store.check([key]):
            return
        raw = store.get(key)
        self._cmd_next += 1
        store.add(key + "/seen", 1)
        try:
            message = json.loads(raw.decode("utf-8") if isinstance(raw, bytes) else raw)
        except ValueError:
            LOG.warning("lifeline: unreadable broadcast %s", key)
            return
        if isinstance(message, dict):
            self._act(store, self._cmd_next - 1, message)

    def _act(self, store: Store, seq: int, message: dict[str, Any]) -> None:
        self.agent.handler.act(message)
        if message.get("kind") != "capture_stacks":
            return
        store.set(self.base + "cmd/%d/sent/%d" % (seq, self.rank), "1")
        if self.agent.config.local_rank == 0 and self.agent.config.local_world_size > 1:
            self._peer_checks.append((self._clock() + self.peer_wait, seq, str(message.get("requestId") or "")))

    def _node_key(self, local_rank: int) -> str:
        return self.base + "node/%s/%d" % (safe_name(self.agent.config.node, "node"), local_rank)

    def _check_peers(self, store: Store) -> None:
        """The local rank 0: signals the node's ranks that sent no stacks within ``peer_wait`` seconds, reads their
        faulthandler dumps and sends them on their behalf (in a thread of its own: it waits for the dumps)."""
        now = self._clock()
        due = [c for c in self._peer_checks if c[0] <= now]
        if not due:
            return
        self._peer_checks = [c for c in self._peer_checks if c[0] > now]
        for _, seq, request in due:
            silent: list[dict[str, Any]] = []
            for local in range(1, self.agent.config.local_world_size):
                key = self._node_key(local)
                if not store.check([key]):
                    continue
                raw = store.get(key)
                try:
                    peer = json.loads(raw.decode("utf-8") if isinstance(raw, bytes) else raw)
                except ValueError:
                    continue
                if isinstance(peer, dict) and not store.check([self.base + "cmd/%d/sent/%s" % (seq, peer.get("rank"))]):
                    silent.append(peer)
            if silent:
                threading.Thread(target=self._dump_peers, args=(silent, request), name="lifeline-peer-stacks",
                                 daemon=True).start()

    def _dump_peers(self, peers: list[dict[str, Any]], request: str) -> None:
        for peer in peers:
            try:
                stacks.dump_peer(self.agent, peer, request)
            except Exception:  # noqa: BLE001
                LOG.exception("lifeline: reading the stacks of rank %s failed", peer.get("rank"))

    def _wait_seen(self, store: Store, seq: int, timeout: float) -> None:
        """Rank 0: until every other rank read broadcast ``seq`` (at most ``timeout`` s)."""
        key = self.base + "cmd/%d/seen" % seq
        end = self._clock() + timeout
        while store.add(key, 0) < self.world - 1 and self._clock() < end:
            time.sleep(0.05)

    def step_seconds(self) -> float | None:
        """Recent time per step; None when unknown."""
        return self._rate.seconds()

    # ---------------------------------------------------------------- rank 0
    def _leader_tick(self) -> None:
        store = self._connect()
        if not self._restart_published:
            store.set(self._key("launch"), self.agent.config.launch_tag or "-")
            store.set(self._key("restart"), str(self.agent.config.restart_count))
            self._restart_published = True
        v = store.add(self._key("sigreq"), 0)
        if v > self._sigreq_seen:
            self._sigreq_seen = v
            with self._lock:
                self._requests.append(Wish(reason="signal", hold=True))
        if self._signal_pending and not self._signal_sent:
            self._signal_sent = True
            with self._lock:
                self._requests.append(Wish(reason="signal", hold=True))
        with self._lock:
            if self._inflight is not None or not self._requests:
                return
            saves = [r for r in self._requests if r.kind == "save"]
            if saves:
                self._requests = [r for r in self._requests if r.kind != "save"]
                reason, hold, commands, deadline, storage = merge_saves(saves)
                req_plan: tuple[str, str, bool, list[str], str | None, str | None, str | None, str | None] = (
                    "save", reason, hold, commands, deadline, None, None, storage)
            else:
                r = self._requests.pop(0)
                req_plan = (r.kind, r.reason, r.hold, r.command_ids, r.deadline, r.checkpoint_id, r.uri, r.storage)
            step = self.agent.state.step + self._rate.lead_steps(self.lead_seconds, self._lead_factor)
            plan = Plan(self._seq, step, *req_plan)
            self._seq += 1
            self._inflight = plan
            self._plans.append(plan)
            self._update_attention()
        # Attention first, then publish: this rank can never be late for its own plan.
        store.set(self._key("plan", plan.seq), plan.encode())
        store.add(self._key("plan", plan.seq, "ok"), 1)
        LOG.info("lifeline: planned %r (current step %s)", plan, self.agent.state.step)

    # ---------------------------------------------------------------- other ranks
    def _follower_tick(self) -> None:
        store = self._connect()
        if self._group_restart is None and store.check([self._key("restart")]):
            # Rank 0 sets its launch before its restart count: a follower that reads the count finds the launch.
            if not self._group_launch_known and store.check([self._key("launch")]):
                raw = store.get(self._key("launch"))
                launch = raw.decode("utf-8") if isinstance(raw, bytes) else str(raw)
                self._learn_launch(None if launch == "-" else launch)
            self._group_restart = int(store.get(self._key("restart")))
        if self._signal_pending and not self._signal_sent:
            self._signal_sent = True
            store.add(self._key("sigreq"), 1)
            LOG.info("lifeline: asked rank 0 for an emergency checkpoint")
        key = self._key("plan", self._next_seq)
        if not store.check([key]):
            return
        plan = Plan.decode(store.get(key))
        self._next_seq += 1
        with self._lock:
            self._plans.append(plan)
            self._update_attention()
        current = self.agent.state.step   # read after the attention was set (see the module's documentation)
        answer = "ok" if current < plan.step else "late"
        store.add(self._key("plan", plan.seq, answer), 1)
        LOG.info("lifeline: learned %r at step %s: %s", plan, current, answer)

    def _count_answers(self) -> None:
        with self._lock:
            undecided = [p for p in self._plans if p.decision is None]
        store = self._connect()
        for plan in undecided:
            ok = store.add(self._key("plan", plan.seq, "ok"), 0)
            late = store.add(self._key("plan", plan.seq, "late"), 0)
            if ok + late >= self.world:
                plan.decide(late == 0, "" if late == 0 else "%d rank(s) learned of it too late" % late)

    # ---------------------------------------------------------------- training thread
    def due(self, step: int) -> Plan | None:
        if not self._established.is_set():
            self.establish()
        with self._lock:
            ready = [p for p in self._plans if p.step <= step]
        if not ready:
            with self._lock:
                self._update_attention()
            return None
        plan = min(ready, key=lambda p: p.seq)
        started = self._clock()
        while not plan.decided.wait(0.1):
            waited = self._clock() - started
            if waited >= self.agree_timeout or self.agent.emergency.out_of_time(3.0):
                plan.decide(False, "not every rank answered within %.0f s" % waited)
                break
        if plan.decision:
            return plan
        LOG.warning("lifeline: skipping %r: %s", plan, plan.note)
        self._drop(plan, replan=True)
        return None

    def finished(self, plan: Plan) -> None:
        self._drop(plan, replan=False)

    def _drop(self, plan: Plan, replan: bool) -> None:
        with self._lock:
            if plan in self._plans:
                self._plans.remove(plan)
            if self.rank == 0 and self._inflight is plan:
                self._inflight = None
                if replan:
                    self._lead_factor = min(self._lead_factor * 2, 64.0)
                    r = Wish(plan.kind, plan.reason, plan.hold, None, plan.deadline, plan.checkpoint_id, plan.uri,
                             plan.storage)
                    r.command_ids = list(plan.commands)
                    self._requests.insert(0, r)
                else:
                    self._lead_factor = max(1.0, self._lead_factor / 2)
            self._update_attention()
        self._wake.set()
