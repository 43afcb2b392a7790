"""CloudEvents 1.0 for Lifeline's v1 catalogue, exactly the field names and types of docs/events.md.

Every builder returns a dict ready to be JSON-encoded. Ids are stable and unique per fact, so a resend dedupes:
``<run>/<restart>/<kind>/...`` for the incarnation's facts, ``<checkpointId>/<phase>`` for a checkpoint's.
"""

from __future__ import annotations

import datetime
from typing import Any, Dict, Iterable, Union

from ._util import bounded_id, rfc3339
from .trust import loss_wire

#: A CloudEvent as it is sent: a JSON object.
Event = Dict[str, Any]
#: When an event happened: epoch seconds or a datetime (naive: UTC); None: now.
When = Union[None, int, float, datetime.datetime]

TELEMETRY_TYPES = frozenset(["trainer.progress", "trainer.step_times", "gpu.sample"])
#: Characters of a raw stacks dump kept in trainer.stacks (its beginning).
MAX_STACKS_TEXT = 32 * 1024


class EventFactory:
    """Builds the events of one job from one source."""

    def __init__(self, source: str, job: str | None) -> None:
        self.source = source
        self.job = job

    def event(self, type_: str, id_: str, data: dict[str, Any], time: When = None) -> Event:
        return {
            "specversion": "1.0",
            "id": bounded_id(id_),
            "source": self.source,
            "type": type_,
            "subject": self.job,
            "time": rfc3339(time),
            "datacontenttype": "application/json",
            "data": data,
        }

    # ------------------------------------------------------------------ trainer
    def progress(self, run_key: str, step: int, samples_per_second: float | None = None,
                 tokens_per_second: float | None = None, time: When = None, loss: Any = None) -> Event:
        """``loss``: the loss the loop gave with its latest step; a non-finite one goes as ``"nan"``, ``"inf"`` or
        ``"-inf"`` (JSON has no NaN)."""
        data: dict[str, Any] = {"step": int(step)}
        wire = loss_wire(loss) if loss is not None else None
        if wire is not None:
            data["loss"] = wire
        if samples_per_second is not None:
            data["samplesPerSecond"] = float(max(0.0, samples_per_second))
        if tokens_per_second is not None:
            data["tokensPerSecond"] = float(max(0.0, tokens_per_second))
        return self.event("trainer.progress", "%s/progress/%d" % (run_key, int(step)), data, time)

    def step_times(self, run_key: str, rank: int, steps: int, to_step: int, median_seconds: float | None,
                   max_seconds: float | None = None, busy_median_seconds: float | None = None,
                   local_rank: int | None = None, node: str | None = None, time: When = None,
                   since_step_seconds: float | None = None, phase: str | None = None,
                   phase_seconds: float | None = None, report: int | None = None) -> Event:
        """One rank's step durations since its previous report: how many steps, the median and longest wall time
        between two ``agent.step()`` calls, and the median of the time the loop says it worked (``busy``) before
        waiting for its peers. Lifeline compares the ranks' medians to find a straggler. It is the rank's heartbeat
        too: ``steps`` 0 (no step since the last report, no medians), ``sinceStepSeconds``, ``phase`` and
        ``phaseSeconds`` say whether it is stalled. ``report``: this process's count of reports, which tells apart
        the heartbeats of one step (a summary of steps is identified by the step reached, as before)."""
        data: dict[str, Any] = {"rank": int(rank), "steps": max(0, int(steps)), "toStep": max(0, int(to_step))}
        if data["steps"] > 0 and median_seconds is not None:
            data["medianSeconds"] = round(max(0.0, float(median_seconds)), 6)
            if max_seconds is not None:
                data["maxSeconds"] = round(max(0.0, float(max_seconds)), 6)
            if busy_median_seconds is not None:
                data["busyMedianSeconds"] = round(max(0.0, float(busy_median_seconds)), 6)
        else:
            data["steps"] = 0
        if local_rank is not None:
            data["localRank"] = int(local_rank)
        if node:
            data["node"] = node
        if since_step_seconds is not None:
            data["sinceStepSeconds"] = round(max(0.0, float(since_step_seconds)), 3)
        if phase:
            data["phase"] = phase
        if phase_seconds is not None:
            data["phaseSeconds"] = round(max(0.0, float(phase_seconds)), 3)
        id_ = "%s/step_times/%d/%d" % (run_key, int(rank), int(to_step))
        if data["steps"] == 0:
            id_ += "/%d" % (report or 0)
        return self.event("trainer.step_times", id_, data, time)

    def stacks(self, run_key: str, request_id: str, rank: int, threads: list[dict[str, Any]], via: str = "frames",
               local_rank: int | None = None, node: str | None = None, pid: int | None = None,
               step: int | None = None, phase: str | None = None, since_step_seconds: float | None = None,
               text: str | None = None, time: When = None) -> Event:
        """The Python stacks of one rank's threads, captured on a capture_stacks command (``request_id``, "local"
        when captured without one). A lifecycle event, never dropped for telemetry. ``threads``: as
        :func:`lifeline_agent.stacks.capture` gives them (bounded there); ``text``: a raw dump (faulthandler's), at
        most 32 KiB."""
        data: dict[str, Any] = {"requestId": str(request_id), "rank": int(rank), "via": via, "threads": threads}
        if local_rank is not None:
            data["localRank"] = int(local_rank)
        if node:
            data["node"] = node
        if pid is not None:
            data["pid"] = int(pid)
        if step is not None:
            data["step"] = max(0, int(step))
        if phase:
            data["phase"] = phase
        if since_step_seconds is not None:
            data["sinceStepSeconds"] = round(max(0.0, float(since_step_seconds)), 3)
        if text:
            data["text"] = text[:MAX_STACKS_TEXT]
        return self.event("trainer.stacks", "%s/stacks/%s/%d" % (run_key, request_id, int(rank)), data, time)

    REASONS = ("periodic", "command", "prepare_exit", "signal")

    def checkpoint_started(self, checkpoint_id: str, step: int, async_: bool = False, time: When = None,
                           reason: str | None = None, loss: Any = None) -> Event:
        """``loss``: the loss when the save began (as :meth:`progress` sends it), which Lifeline judges the
        checkpoint's trust by."""
        data: dict[str, Any] = {"checkpointId": checkpoint_id, "step": int(step), "async": bool(async_)}
        wire = loss_wire(loss) if loss is not None else None
        if wire is not None:
            data["loss"] = wire
        if reason in self.REASONS:
            # An exit save (prepare_exit, signal) tells Lifeline that the stop which follows lost nothing.
            data["reason"] = reason
        return self.event("trainer.checkpoint.started", checkpoint_id + "/started", data, time)

    def checkpoint_completed(self, checkpoint_id: str, step: int, duration_seconds: float, blocking_seconds: float,
                             bytes_: int | None = None, uri: str | None = None, checksum: str | None = None,
                             shards: int | None = None, async_: bool = False, world_size: int | None = None,
                             time: When = None, durable: bool | None = None,
                             replicas: Iterable[str] | None = None, free_bytes: int | None = None,
                             capacity_bytes: int | None = None) -> Event:
        """``durable``: what the script declared about where it saves (True: outlives any node; False: the nodes'
        own disks; None: not said). ``replicas``: the nodes holding a copy, for a checkpoint on the nodes' disks."""
        data: dict[str, Any] = {
            "checkpointId": checkpoint_id,
            "step": int(step),
            "durationSeconds": round(max(0.0, float(duration_seconds)), 6),
            "blockingSeconds": round(max(0.0, float(blocking_seconds)), 6),
            "async": bool(async_),
        }
        if bytes_ is not None:
            data["bytes"] = int(bytes_)
        if uri:
            data["uri"] = uri
        if checksum:
            data["checksum"] = checksum
        if shards is not None:
            data["shards"] = max(1, int(shards))
        if world_size is not None:
            data["worldSize"] = max(1, int(world_size))
        if durable is not None:
            data["durable"] = bool(durable)
        if replicas:
            data["replicas"] = [str(n) for n in list(dict.fromkeys(replicas))[:64]]
        if free_bytes is not None:
            data["freeBytes"] = max(0, int(free_bytes))
        if capacity_bytes is not None:
            data["capacityBytes"] = max(0, int(capacity_bytes))
        return self.event("trainer.checkpoint.completed", checkpoint_id + "/completed", data, time)

    def checkpoint_failed(self, checkpoint_id: str, step: int, error: object = None, time: When = None,
                          reason: str | None = None, free_bytes: int | None = None,
                          needed_bytes: int | None = None, capacity_bytes: int | None = None) -> Event:
        """``reason``: ``no_space`` when the free-space guard refused the save (or the disk filled during it), with
        ``free_bytes``, ``needed_bytes`` and the file system's ``capacity_bytes``."""
        data: dict[str, Any] = {"checkpointId": checkpoint_id, "step": int(step)}
        if error:
            data["error"] = str(error)[:4000]
        if reason:
            data["reason"] = reason
        if free_bytes is not None:
            data["freeBytes"] = max(0, int(free_bytes))
        if needed_bytes is not None:
            data["neededBytes"] = max(0, int(needed_bytes))
        if capacity_bytes is not None and capacity_bytes > 0:
            data["capacityBytes"] = int(capacity_bytes)
        return self.event("trainer.checkpoint.failed", checkpoint_id + "/failed", data, time)

    def checkpoint_verified(self, checkpoint_id: str, ok: bool, checksum: str | None = None, attempt: int | None = None,
                            time: When = None) -> Event:
        data: dict[str, Any] = {"checkpointId": checkpoint_id, "ok": bool(ok)}
        if checksum:
            data["checksum"] = checksum
        suffix = "/verified/%s" % ("ok" if ok else "corrupt")
        if checksum and not ok:
            suffix += "/" + checksum[-16:]
        return self.event("trainer.checkpoint.verified", checkpoint_id + suffix, data, time)

    def restored(self, run_key: str, checkpoint_id: str, step: int, run_id: str | None = None, seq: int = 0,
                 time: When = None) -> Event:
        """``seq`` counts the restores of this process (0: the one at start), so a second restore from the same
        checkpoint in one incarnation is a new fact."""
        data: dict[str, Any] = {"checkpointId": checkpoint_id, "step": int(step)}
        if run_id:
            data["runId"] = run_id
        return self.event("trainer.restored", "%s/restored/%d/%s" % (run_key, int(seq), checkpoint_id), data, time)

    def worker_failed(self, run_key: str, rank: int, run_id: str | None = None, node: str | None = None,
                      exit_code: int | None = None, error: object = None, step: int | None = None,
                      time: When = None) -> Event:
        """``step``: the last step the rank completed (Lifeline's progress is sampled; this is exact)."""
        data: dict[str, Any] = {"rank": int(rank)}
        if run_id:
            data["runId"] = run_id
        if node:
            data["node"] = node
        if exit_code is not None:
            data["exitCode"] = int(exit_code)
        if error:
            data["error"] = str(error)[:4000]
        if step is not None and int(step) >= 0:
            data["step"] = int(step)
        return self.event("trainer.worker_failed", "%s/worker_failed/%d" % (run_key, int(rank)), data, time)

    # ------------------------------------------------------------------ job
    def job_submitted(self, id_: str, namespace: str | None, min_nodes: int, max_nodes: int, procs_per_node: int,
                      max_restarts: int, gpus_per_node: int, checkpoint_interval_seconds: float | None = None,
                      owner: str | None = None, priority_class: str | None = None, time: When = None) -> Event:
        data: dict[str, Any] = {
            "namespace": namespace,
            "elastic": {
                "minNodes": int(min_nodes),
                "maxNodes": int(max_nodes),
                "procsPerNode": int(procs_per_node),
                "maxRestarts": int(max_restarts),
            },
            "gpusPerNode": int(gpus_per_node),
        }
        if checkpoint_interval_seconds is not None:
            data["checkpointIntervalSeconds"] = max(1, int(round(checkpoint_interval_seconds)))
        if owner:
            data["owner"] = owner
        if priority_class:
            data["priorityClass"] = priority_class
        return self.event("job.submitted", id_, data, time)


def is_telemetry(event: Event) -> bool:
    return event.get("type") in TELEMETRY_TYPES
