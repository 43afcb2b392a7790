"""Forwarding torchelastic's own events (``torch.distributed.elastic.events``) to Lifeline's torchelastic connector.

torchrun's agent records two kinds of event: status records (``torchelastic.worker.status.*``, an ``Event``) to
the handler named by ``--event-log-handler``, and rendezvous records (``RdzvEvent``) to the handler registered as
``dynamic_rendezvous`` (a NullHandler by default, and then not even built). :func:`install` registers one
forwarding handler under both names in ``torch.distributed.elastic.events.handlers._log_handlers``, before
``torch.distributed.run.main()`` runs. The handler puts each record, as torchelastic's console handler prints it
(one JSON object), on a queue; a background thread posts them as NDJSON to
``POST /api/v1/connectors/torchelastic?job=<ns>/<name>&procsPerNode=N`` with the usual buffer, batching and
retry rules. When LIFELINE_NODE is set it replaces the records' ``hostname`` (the node of a rendezvous participant),
so that two agents on one host are told apart. Every line gets the wrapper's launch id as ``lifeline_launch`` (see
:mod:`lifeline_agent.launch`): torchelastic's rounds and restart counts start at 0 again when a job is launched again
with the same rdzv id, and the launch keeps the new launch's events apart from the first one's. torchelastic
leaves the status records' ``timestamp`` at 0 and gives rendezvous records none: each line gets the time torchelastic
recorded it (``timestamp``, milliseconds), so Lifeline orders them with the trainers' own events by when they
happened, not by when they arrived (the lines wait for ``job.submitted``, for a batch, for Lifeline to answer). The
rendezvous keep-alive chatter (a record per node every few seconds, which Lifeline ignores) is not forwarded unless
``forward_all``.
"""

from __future__ import annotations

import json
import logging
from typing import Iterable, Protocol

from ._util import LOG
from .sender import LIFECYCLE

HANDLER_NAME = "lifeline"
LAUNCH_FIELD = "lifeline_launch"
CHATTER = ("keep-alive heartbeat", "has successfully synced its local changes", "has a stale state and failed to sync",
           "updated its keep-alive heartbeat")


class LineSink(Protocol):
    """Where the forwarder puts its lines (a :class:`~lifeline_agent.sender.BatchSender` of NDJSON lines)."""

    def add(self, item: str, lifecycle: bool = ...) -> None: ...


class TorchelasticForwarder(logging.Handler):
    """A logging handler for torchelastic's event loggers: one NDJSON line per record to ``sender``."""

    def __init__(self, sender: LineSink, node: str | None = None, forward_all: bool = False,
                 also: Iterable[logging.Handler | None] | None = None, launch: str | None = None) -> None:
        logging.Handler.__init__(self)
        self.sender = sender
        self.node = node
        self.launch = launch
        self.forward_all = forward_all
        self.also = [h for h in (also or []) if h is not None and not isinstance(h, logging.NullHandler)]
        self.forwarded = 0
        self.skipped = 0

    def line(self, text: str, created: float | None = None) -> str | None:
        """The line to forward for one record's message, or None to skip it. ``created``: when torchelastic recorded
        it (seconds since the epoch), the line's ``timestamp`` when it has none."""
        try:
            obj = json.loads(text)
        except (TypeError, ValueError):
            return None
        if not isinstance(obj, dict):
            return None
        if "metadata" in obj and "source" in obj and "name" in obj:
            md = obj.get("metadata")
            if self.node and isinstance(md, dict):
                md["hostname"] = self.node
        elif "run_id" in obj and "node_state" in obj:
            msg = obj.get("message") or ""
            if not self.forward_all and any(c in msg for c in CHATTER):
                return None
            if self.node:
                obj["hostname"] = self.node
        else:
            return None
        if self.launch:
            obj[LAUNCH_FIELD] = self.launch
        if created is not None and not obj.get("timestamp"):
            obj["timestamp"] = int(created * 1000)
        return json.dumps(obj, separators=(", ", ": "))

    def emit(self, record: logging.LogRecord) -> None:
        try:
            text = record.getMessage()
            line = self.line(text, record.created)
            if line is None:
                self.skipped += 1
            else:
                self.sender.add(line, LIFECYCLE)
                self.forwarded += 1
        except Exception:  # noqa: BLE001 - never break torchrun
            self.handleError(record)
        for h in self.also:
            try:
                h.handle(record)
            except Exception:  # noqa: BLE001
                pass


def supports_event_log_handler() -> bool:
    """Whether this torch's torchrun takes ``--event-log-handler`` (torch >= 2.x) or only the old underscore
    spelling; both exist since torchelastic moved into torch, but very old versions record to ``null``."""
    try:
        from torch.distributed import run as trun
        opts = trun.get_args_parser()._option_string_actions
        return "--event-log-handler" in opts or "--event_log_handler" in opts
    except Exception:  # noqa: BLE001
        return False


def install(sender: LineSink, node: str | None = None, name: str = HANDLER_NAME, chain: str | None = None,
            forward_all: bool = False,
            launch: str | None = None) -> tuple[TorchelasticForwarder, TorchelasticForwarder]:
    """Registers the forwarder as ``name`` and as ``dynamic_rendezvous`` (and as ``null`` on a torch whose
    torchrun has no ``--event-log-handler``). ``chain``: the name of a handler the user asked for, still fed;
    ``launch``: the launch id every forwarded line carries."""
    from torch.distributed.elastic.events import handlers
    registry = handlers._log_handlers
    also: list[logging.Handler | None] = []
    if chain and chain in registry and chain != name:
        also.append(registry[chain])
    prev_rdzv = registry.get("dynamic_rendezvous")
    fwd = TorchelasticForwarder(sender, node, forward_all, also, launch)
    rdzv = TorchelasticForwarder(sender, node, forward_all, [prev_rdzv], launch)
    registry[name] = fwd
    registry["dynamic_rendezvous"] = rdzv
    if not supports_event_log_handler():
        registry["null"] = fwd
    # Loggers built before (they cache their handler per destination) get the new one.
    try:
        from torch.distributed.elastic import events as ev
        for dest, lg in getattr(ev, "_events_loggers", {}).items():
            h = registry.get(dest)
            if h in (fwd, rdzv):
                for old in list(lg.handlers):
                    lg.removeHandler(old)
                lg.addHandler(h)
    except Exception:  # noqa: BLE001
        LOG.debug("lifeline: could not update existing torchelastic event loggers", exc_info=True)
    return fwd, rdzv
