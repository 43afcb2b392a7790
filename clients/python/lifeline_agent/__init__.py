"""Lifeline's trainer agent: tells Lifeline what a torchrun-elastic training job does and takes its commands.

Ten lines in a training loop::

    import lifeline_agent
    from lifeline_agent.checkpoint import CheckpointManager

    agent = lifeline_agent.init()                       # reads LIFELINE_URL, LIFELINE_TOKEN, LIFELINE_JOB, torchrun's env
    ckpt = CheckpointManager("./checkpoints", agent=agent)
    start = ckpt.restore(model=model, optimizer=opt)    # newest intact checkpoint, or None
    for step in range((start.step if start else 0) + 1, steps + 1):
        train_one_step()
        task = agent.step(step, samples=global_batch)   # cheap; a Task only when all ranks must act now
        if task:
            agent.run(task, save=lambda: ckpt.save(step, model=model, optimizer=opt, reason=task.reason),
                      restore=lambda cid, uri: ckpt.restore(model=model, optimizer=opt, checkpoint_id=cid).step)

Without LIFELINE_URL (or LIFELINE_JOB) :func:`init` returns a no-op agent, after one warning. Standard library only;
torch is imported lazily where it is needed.
"""

from __future__ import annotations

import threading
from typing import Any

from ._util import LOG, configure_logging
from .agent import Agent, NoopAgent, PeerLostError, Task
from .config import Config

__all__ = ["init", "get", "shutdown", "Agent", "NoopAgent", "Task", "PeerLostError", "Config", "__version__"]
__version__ = "0.1.0"

_lock = threading.Lock()
_agent: Agent | NoopAgent | None = None


def init(config: Config | None = None, **overrides: Any) -> Agent | NoopAgent:
    """The process's agent, created on the first call (later calls return the same one). ``overrides`` set
    :class:`Config` attributes, for example ``init(progress_interval=10)``."""
    global _agent
    with _lock:
        if _agent is not None:
            return _agent
        configure_logging()
        cfg = config or Config.from_env(**overrides)
        if not cfg.enabled:
            _agent = NoopAgent(cfg)
        else:
            try:
                _agent = Agent(cfg)
            except Exception as e:  # noqa: BLE001 - a broken agent must never stop training
                LOG.warning("lifeline: the agent could not start (%s); continuing without it", e)
                _agent = NoopAgent(cfg, warn=False)
        return _agent


def get() -> Agent | NoopAgent:
    """The process's agent (initialised from the environment when :func:`init` was not called yet)."""
    return _agent if _agent is not None else init()


def shutdown(timeout: float | None = None) -> bool:
    """Flushes and stops the agent (also done at exit)."""
    global _agent
    with _lock:
        a, _agent = _agent, None
    if a is not None:
        return a.close(timeout)
    return True
