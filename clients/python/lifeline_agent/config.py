"""The agent's settings, read from the environment (Lifeline's and torchrun's variables)."""

from __future__ import annotations

import base64
import hashlib
import os
import re
import socket
import tempfile

from . import launch as _launch
from typing import Any

from ._util import LOG, Env, env_bool, env_float, env_int, safe_name

_K8S_NAME = re.compile(r"^[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?$")
_NAMESPACE = re.compile(r"^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$")


class Config:
    """Everything the agent reads from the environment. Build it with :meth:`from_env`."""

    def __init__(self, **kw: Any) -> None:
        self.url: str | None = None     # LIFELINE_URL, e.g. http://lifeline:8080 (no trailing /api)
        self.token: str | None = None   # LIFELINE_TOKEN
        self.token_file: str | None = None  # LIFELINE_TOKEN_FILE (read when LIFELINE_TOKEN is unset; re-read on 401)
        self.job: str | None = None     # LIFELINE_JOB, namespace/name
        self.node: str | None = None    # LIFELINE_NODE, else NODE_NAME, else the host's FQDN (as torchelastic)
        self.ca_file: str | None = None  # LIFELINE_CA_FILE: CA bundle for https
        self.insecure = False           # LIFELINE_INSECURE=1: do not verify TLS certificates (tests only)
        # torchrun
        self.rank = 0
        self.local_rank = 0
        self.world_size = 1
        self.group_rank = 0
        self.local_world_size = 1
        self.restart_count = 0
        self.max_restarts = 0
        self.run_id = "none"
        self.launch: str | None = None  # LIFELINE_LAUNCH (the wrapper sets it), else torchrun's error-file directory
        #                                 (see launch.py): which launch of the job this process belongs to
        # This worker process. torchelastic restarts a node's workers for a change of the group (a peer failed, a
        # node joined or left) without counting a restart, so only the process tells those incarnations apart.
        self.pid = os.getpid()
        self.master_addr: str | None = None
        self.master_port: int | None = None
        # behaviour
        self.progress_interval = 5.0    # LIFELINE_PROGRESS_INTERVAL, s between trainer.progress events
        self.step_times_interval = 10.0  # LIFELINE_STEP_TIMES_INTERVAL, s between trainer.step_times (0: none)
        self.buffer_events = 10000      # LIFELINE_BUFFER_EVENTS, events kept while Lifeline is unreachable
        self.batch_events = 500         # LIFELINE_BATCH_EVENTS, events per request
        self.flush_interval = 1.0       # LIFELINE_FLUSH_INTERVAL, s a telemetry event may wait to be batched
        self.http_timeout = 10.0        # LIFELINE_HTTP_TIMEOUT, s per request
        self.max_backoff = 30.0         # LIFELINE_MAX_BACKOFF, s between retries at most
        self.flush_timeout = 5.0        # LIFELINE_FLUSH_TIMEOUT, s spent flushing at exit at most
        self.commands = True            # LIFELINE_COMMANDS=0: rank 0 does not poll for commands
        self.agent_key: str | None = None  # LIFELINE_AGENT_KEY: the key that claims the job's commands (the
        #                                 wrapper makes one per launch; see agent_key_of)
        self.command_wait = 30          # LIFELINE_COMMAND_WAIT, s of one long poll
        self.checkpoint_interval: float | None = None  # LIFELINE_CHECKPOINT_INTERVAL, s between agent-planned
        #                                 saves (none: off)
        self.hold_grace = 30.0          # LIFELINE_HOLD_GRACE, s held past a prepare_exit deadline before resuming
        self.checkpoints_durable: bool | None = None  # LIFELINE_CHECKPOINTS_DURABLE: 1, the trainer's saves
        #                                 outlive any node (object storage, a shared file system); 0, they stay on the
        #                                 nodes' own disks; unset, not said (CheckpointManager(durable=...) says it in
        #                                 the script)
        self.suspect_loss_factor = 10.0  # LIFELINE_SUSPECT_LOSS_FACTOR: a save after a loss above this many times
        #                                 the median of the recent ones is suspect (see trust.py)
        self.hold_heartbeat = 1.0       # LIFELINE_HOLD_HEARTBEAT, s between liveness collectives while holding
        self.hold_timeout = 600.0       # LIFELINE_HOLD_TIMEOUT, s one liveness collective may take at most
        self.shutdown_timeout = 30.0    # LIFELINE_SHUTDOWN_TIMEOUT (else TORCH_ELASTIC_SHUTDOWN_TIMEOUT), the
        #                                 SIGTERM -> SIGKILL window torchrun gives the workers
        self.signals: tuple[str, ...] = ("SIGTERM", "SIGUSR1")  # LIFELINE_SIGNALS, comma separated; empty:
        #                                 install no handler
        self.stacks_signal: str | None = "SIGUSR2"  # LIFELINE_STACKS_SIGNAL: faulthandler dumps every thread's stack on
        #                                 it (empty: none)
        self.stacks_dir = tempfile.gettempdir()  # LIFELINE_STACKS_DIR: where that dump goes,
        #                                 lifeline-stacks-<pid>.txt
        self.signal_exit = True         # LIFELINE_SIGNAL_EXIT=0: keep training after the emergency checkpoint
        self.agree_lead = 0.5           # LIFELINE_AGREE_LEAD, s ahead rank 0 plans a coordinated step
        self.agree_timeout = 60.0       # LIFELINE_AGREE_TIMEOUT, s a rank waits for the others' confirmations
        self.coord_poll = 0.05          # LIFELINE_COORD_POLL, s between store polls of the coordination thread
        self.exception_hook = True      # LIFELINE_EXCEPTION_HOOK=0: no trainer.worker_failed on a crash
        self.exit_with_agent = True     # LIFELINE_EXIT_WITH_AGENT=0: a worker outlives a torchrun agent killed hard
        self.source: str | None = None  # LIFELINE_SOURCE, default lifeline-agent/<namespace>/<name>
        for k, v in kw.items():
            if not hasattr(self, k):
                raise TypeError("unknown setting " + k)
            setattr(self, k, v)

    # ------------------------------------------------------------------ derived
    @property
    def namespace(self) -> str | None:
        return self.job.split("/", 1)[0] if self.job else None

    @property
    def name(self) -> str | None:
        return self.job.split("/", 1)[1] if self.job else None

    @property
    def enabled(self) -> bool:
        return bool(self.url) and bool(self.job)

    @property
    def event_source(self) -> str:
        return self.source or ("lifeline-agent/" + (self.job or "unknown"))

    @property
    def run_key(self) -> str:
        """``<run>/<node>/<launch>/<restart>/<pid>``: this process's incarnation, used in event ids. Each torchrun
        agent counts its own restarts (a node that joins later starts at 0), so the node is part of it; a job launched
        again with the same rdzv id counts again from 0, so the launch is too (``<run>/<node>/<restart>/<pid>`` without
        one). The agent does not count a restart of its workers for a change of the group (a peer's failure, a node
        that joined): the new workers restore the same checkpoint and reach the same steps as the ones before, and
        only the process id keeps their restore and progress from reading as resends of those."""
        run, node = safe_name(self.run_id, "none"), safe_name(self.node, "node")
        if self.launch:
            return "%s/%s/%s/%d/%d" % (run, node, safe_name(self.launch), self.restart_count, self.pid)
        return "%s/%s/%d/%d" % (run, node, self.restart_count, self.pid)

    @property
    def launch_tag(self) -> str | None:
        """This process's launch as checkpoint names carry it (8 hex digits), or None."""
        return _launch.tag(self.launch)

    def read_token(self) -> str | None:
        if self.token:
            return self.token
        if self.token_file:
            try:
                with open(self.token_file, "r") as f:
                    return f.read().strip() or None
            except OSError as e:
                LOG.warning("cannot read LIFELINE_TOKEN_FILE %s: %s", self.token_file, e)
        return None

    # ------------------------------------------------------------------ loading
    @classmethod
    def from_env(cls, env: Env | None = None, **overrides: Any) -> Config:
        env = os.environ if env is None else env
        c = cls()
        c.url = (env.get("LIFELINE_URL") or "").strip().rstrip("/") or None
        c.token = (env.get("LIFELINE_TOKEN") or "").strip() or None
        c.token_file = (env.get("LIFELINE_TOKEN_FILE") or "").strip() or None
        job = (env.get("LIFELINE_JOB") or "").strip() or None
        if job is not None and not valid_job(job):
            LOG.warning("LIFELINE_JOB=%r is not namespace/name (Kubernetes names); the agent stays off", job)
            job = None
        c.job = job
        c.node = ((env.get("LIFELINE_NODE") or "").strip() or (env.get("NODE_NAME") or "").strip()
                  or socket.getfqdn())      # what torchelastic puts in its records' hostname
        c.ca_file = (env.get("LIFELINE_CA_FILE") or "").strip() or None
        c.insecure = env_bool(env, "LIFELINE_INSECURE", False)

        c.rank = env_int(env, "RANK", 0, 0)
        c.local_rank = env_int(env, "LOCAL_RANK", 0, 0)
        c.world_size = env_int(env, "WORLD_SIZE", 1, 1)
        c.group_rank = env_int(env, "GROUP_RANK", 0, 0)
        c.local_world_size = env_int(env, "LOCAL_WORLD_SIZE", 1, 1)
        c.restart_count = env_int(env, "TORCHELASTIC_RESTART_COUNT", 0, 0)
        c.max_restarts = env_int(env, "TORCHELASTIC_MAX_RESTARTS", 0, 0)
        c.run_id = (env.get("TORCHELASTIC_RUN_ID") or "").strip() or "none"
        c.launch = _launch.launch_of(env)
        c.master_addr = (env.get("MASTER_ADDR") or "").strip() or None
        c.master_port = env_int(env, "MASTER_PORT", 0, 0) or None

        c.progress_interval = env_float(env, "LIFELINE_PROGRESS_INTERVAL", c.progress_interval, 0.1)
        c.step_times_interval = env_float(env, "LIFELINE_STEP_TIMES_INTERVAL", c.step_times_interval, 0.0)
        c.buffer_events = env_int(env, "LIFELINE_BUFFER_EVENTS", c.buffer_events, 10)
        c.batch_events = min(env_int(env, "LIFELINE_BATCH_EVENTS", c.batch_events, 1), 10000)
        c.flush_interval = env_float(env, "LIFELINE_FLUSH_INTERVAL", c.flush_interval, 0.01)
        c.http_timeout = env_float(env, "LIFELINE_HTTP_TIMEOUT", c.http_timeout, 0.1)
        c.max_backoff = env_float(env, "LIFELINE_MAX_BACKOFF", c.max_backoff, 0.1)
        c.flush_timeout = env_float(env, "LIFELINE_FLUSH_TIMEOUT", c.flush_timeout, 0.0)
        c.commands = env_bool(env, "LIFELINE_COMMANDS", True)
        c.command_wait = env_int(env, "LIFELINE_COMMAND_WAIT", c.command_wait, 0)
        c.agent_key = agent_key_of(env, c.token or c.read_token())
        interval = env_float(env, "LIFELINE_CHECKPOINT_INTERVAL", 0.0, 0.0)
        c.checkpoint_interval = interval if interval > 0 else None
        c.hold_grace = env_float(env, "LIFELINE_HOLD_GRACE", c.hold_grace, 0.0)
        c.checkpoints_durable = env_bool(env, "LIFELINE_CHECKPOINTS_DURABLE", None)
        c.suspect_loss_factor = env_float(env, "LIFELINE_SUSPECT_LOSS_FACTOR", c.suspect_loss_factor, 1.0)
        c.hold_heartbeat = env_float(env, "LIFELINE_HOLD_HEARTBEAT", c.hold_heartbeat, 0.05)
        c.hold_timeout = env_float(env, "LIFELINE_HOLD_TIMEOUT", c.hold_timeout, 1.0)
        c.shutdown_timeout = env_float(env, "LIFELINE_SHUTDOWN_TIMEOUT",
                                       env_float(env, "TORCH_ELASTIC_SHUTDOWN_TIMEOUT", 30.0, 0.0), 0.0)
        raw = env.get("LIFELINE_SIGNALS")
        if raw is not None:
            c.signals = tuple(s.strip().upper() for s in raw.split(",") if s.strip())
        raw = env.get("LIFELINE_STACKS_SIGNAL")
        if raw is not None:
            c.stacks_signal = raw.strip().upper() or None
        c.stacks_dir = (env.get("LIFELINE_STACKS_DIR") or "").strip() or c.stacks_dir
        c.signal_exit = env_bool(env, "LIFELINE_SIGNAL_EXIT", True)
        c.agree_lead = env_float(env, "LIFELINE_AGREE_LEAD", c.agree_lead, 0.0)
        c.agree_timeout = env_float(env, "LIFELINE_AGREE_TIMEOUT", c.agree_timeout, 1.0)
        c.coord_poll = env_float(env, "LIFELINE_COORD_POLL", c.coord_poll, 0.005)
        c.exception_hook = env_bool(env, "LIFELINE_EXCEPTION_HOOK", True)
        c.exit_with_agent = env_bool(env, "LIFELINE_EXIT_WITH_AGENT", True) and bool(env.get("TORCHELASTIC_RUN_ID"))
        c.source = (env.get("LIFELINE_SOURCE") or "").strip() or None
        for k, v in overrides.items():
            if not hasattr(c, k):
                raise TypeError("unknown setting " + k)
            setattr(c, k, v)
        return c


AGENT_KEY_ENV = "LIFELINE_AGENT_KEY"
_AGENT_KEY = re.compile(r"^[A-Za-z0-9._~+/=-]{32,256}$")


def new_agent_key() -> str:
    """A fresh agent key: 32 random bytes, URL-safe base64 (43 characters)."""
    return base64.urlsafe_b64encode(os.urandom(32)).decode("ascii").rstrip("=")


def agent_key_of(env: Env, token: str | None = None) -> str:
    """The key this process claims its job's commands with (header ``Lifeline-Agent-Key``): Lifeline gives a job's
    commands only to the agent that claimed them, and takes their acknowledgements only from it.

    * ``LIFELINE_AGENT_KEY`` when set (the wrapper exports a fresh one per launch, so workers it restarts keep the
      claim; a job may also give all its pods one from a Secret, so rank 0 may move between nodes);
    * else, under plain torchrun, one derived from the token and the directory torchrun made for this agent's start
      (``TORCHELASTIC_ERROR_FILE``): the same for every worker that agent restarts, unknown to anyone without both;
    * else a random one for this process.
    """
    raw = (env.get(AGENT_KEY_ENV) or "").strip()
    if raw:
        if _AGENT_KEY.match(raw):
            return raw
        LOG.warning("%s is not 32 to 256 of A-Z a-z 0-9 . _ ~ + / = -; using a key of this process", AGENT_KEY_ENV)
        return new_agent_key()
    agent_dir = _launch.agent_dir(env.get("TORCHELASTIC_ERROR_FILE"))
    if agent_dir and token:
        digest = hashlib.sha256(("lifeline-agent-key\0%s\0%s" % (token, agent_dir)).encode("utf-8")).hexdigest()
        return digest
    return new_agent_key()


def valid_job(job: object) -> bool:
    if not isinstance(job, str) or job.count("/") != 1:
        return False
    ns, name = job.split("/")
    return bool(_NAMESPACE.match(ns)) and bool(_K8S_NAME.match(name))
