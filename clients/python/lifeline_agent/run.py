"""``python -m lifeline_agent.run <torchrun arguments> script.py ...`` (also ``lifeline-torchrun``): torchrun with
Lifeline's torchelastic event forwarding installed and the agent's environment set for the workers.

It parses the arguments with torchrun's own parser, then

* makes a launch id (8 random hex digits, see :mod:`lifeline_agent.launch`): a job stopped and launched again
  with the same rdzv id is a new launch, whose rounds, restart counts and steps start again;
* sends one ``job.submitted`` (id ``job.submitted/<rdzv id>/<launch>``: a relaunch may change the job, and after
  the job ended it is a new run of it) built from ``--nnodes MIN:MAX``, ``--nproc-per-node``, ``--max-restarts``
  and the GPUs in use; ``LIFELINE_SUBMIT_JOB=0`` turns it off;
* registers the forwarding handler and runs torchrun with ``--event-log-handler lifeline`` (a handler the user
  named there still gets every record), posting to the torchelastic connector with ``procsPerNode``, every line
  with the launch id (``lifeline_launch``);
* exports ``LIFELINE_AGENT_KEY`` (a fresh key per launch unless the job gives one: what claims the job's commands, see
  :func:`lifeline_agent.config.agent_key_of`) to the workers;
* exports ``LIFELINE_NODE``, ``LIFELINE_LAUNCH`` and ``LIFELINE_SHUTDOWN_TIMEOUT`` (torchrun's
  ``--shutdown-timeout``) to the workers;
* sets ``TORCH_DISABLE_SHARE_RDZV_TCP_STORE=1`` unless it is set: with torch's shared store, a node that joins a
  running job after its first round never gets the store's address (the agent that stays rank 0 does not publish
  it again), so scale-up and replacement nodes time out;
* flushes what is queued when torchrun returns (at most ``LIFELINE_FLUSH_TIMEOUT`` seconds).

Without LIFELINE_URL or LIFELINE_JOB it is plain torchrun (after one warning).
"""

from __future__ import annotations

import os
import sys
import threading
from typing import Any, Sequence

from ._util import LOG, Env, configure_logging, env_bool, env_int, safe_name
from .config import AGENT_KEY_ENV, Config, new_agent_key
from .events import Event, EventFactory
from .launch import LAUNCH_ENV, new_launch_id
from .sender import LIFECYCLE, BatchSender, encode_cloudevents, encode_ndjson
from .torchelastic import HANDLER_NAME, install
from .transport import Backoff, Http

_FLAGS = ("--event-log-handler", "--event_log_handler")


def _split(argv: Sequence[str], n_script_args: int) -> tuple[list[str], list[str]]:
    """(torchrun options, [script, script args...]) using the parsed REMAINDER length."""
    cut = len(argv) - 1 - n_script_args
    return list(argv[:cut]), list(argv[cut:])


def _without_handler_flag(opts: Sequence[str]) -> list[str]:
    out, i = [], 0
    while i < len(opts):
        a = opts[i]
        if a in _FLAGS:
            i += 2
            continue
        if any(a.startswith(f + "=") for f in _FLAGS):
            i += 1
            continue
        out.append(a)
        i += 1
    return out


def gpus_per_node(nproc: int, env: Env | None = None) -> int:
    env = os.environ if env is None else env
    explicit = env_int(env, "LIFELINE_GPUS_PER_NODE", -1)
    if explicit >= 0:
        return explicit
    try:
        import torch
        if torch.cuda.is_available():
            return min(nproc, int(torch.cuda.device_count()))
    except Exception:  # noqa: BLE001
        pass
    return 0


def job_submitted_event(cfg: Config, factory: EventFactory, rdzv_id: str | None, min_nodes: int, max_nodes: int,
                        nproc: int, max_restarts: int, gpus: int, env: Env | None = None,
                        launch: str | None = None) -> Event:
    env = os.environ if env is None else env
    id_ = "job.submitted/%s" % safe_name(rdzv_id or "none")
    if launch:
        id_ += "/" + safe_name(launch)
    return factory.job_submitted(
        id_, cfg.namespace, min_nodes, max_nodes, nproc, max_restarts,
        gpus, checkpoint_interval_seconds=cfg.checkpoint_interval,
        owner=(env.get("LIFELINE_OWNER") or "").strip() or None,
        priority_class=(env.get("LIFELINE_PRIORITY_CLASS") or "").strip() or None)


def main(argv: Sequence[str] | None = None) -> Any:
    """Runs torchrun with the arguments (``sys.argv`` by default); returns what torchrun's main returns."""
    argv = list(sys.argv[1:] if argv is None else argv)
    configure_logging()
    from torch.distributed import run as trun
    cfg = Config.from_env()
    url, job = cfg.url, cfg.job
    if not url or not job:              # not cfg.enabled
        LOG.warning("lifeline: %s is not set; running plain torchrun", "LIFELINE_URL" if not cfg.url else "LIFELINE_JOB")
        return trun.main(argv)
    try:
        args = trun.parse_args(argv)
    except SystemExit:
        return trun.main(argv)      # let torchrun print its usage and exit as it does
    min_nodes, max_nodes = trun.parse_min_max_nnodes(args.nnodes)
    nproc = trun.determine_local_world_size(args.nproc_per_node)
    opts, script = _split(argv, len(args.training_script_args))
    user_handler = args.event_log_handler if args.event_log_handler not in (None, "null", HANDLER_NAME) else None
    new_argv = ["--event-log-handler=" + HANDLER_NAME] + _without_handler_flag(opts) + script

    explicit_node = (os.environ.get("LIFELINE_NODE") or os.environ.get("NODE_NAME") or "").strip() or None
    os.environ["LIFELINE_NODE"] = cfg.node or ""     # from_env always finds one
    # Every start of the wrapper is a launch of its own, even with a LIFELINE_LAUNCH left in the environment.
    launch = new_launch_id()
    os.environ[LAUNCH_ENV] = launch
    # The key the workers' rank 0 claims the job's commands with: one per launch, so a worker torchrun restarts keeps
    # the claim. One the job gives (a Secret shared by its pods) is kept.
    os.environ.setdefault(AGENT_KEY_ENV, new_agent_key())
    # torch 2.x shares the rendezvous TCP store with the workers, but an agent that stays rank 0 across rounds
    # does not publish it again, so a node joining later waits for MASTER_ADDR until it times out (scale-up and
    # replacement nodes never start). Without sharing, worker rank 0 hosts a fresh store each round. Set
    # TORCH_DISABLE_SHARE_RDZV_TCP_STORE=0 to keep torch's default.
    os.environ.setdefault("TORCH_DISABLE_SHARE_RDZV_TCP_STORE", "1")
    if not os.environ.get("LIFELINE_SHUTDOWN_TIMEOUT"):
        timeout = args.shutdown_timeout
        if timeout is None:
            timeout = env_int(os.environ, "TORCH_ELASTIC_SHUTDOWN_TIMEOUT", 30)
        os.environ["LIFELINE_SHUTDOWN_TIMEOUT"] = str(timeout)

    http = Http(url, cfg.read_token, timeout=cfg.http_timeout, ca_file=cfg.ca_file, insecure=cfg.insecure)
    events = BatchSender(http, "/api/v1/events", "application/cloudevents-batch+json", encode_cloudevents,
                         "job-events", capacity=cfg.buffer_events, batch=cfg.batch_events,
                         flush_interval=cfg.flush_interval, backoff=Backoff(cap=cfg.max_backoff)).start()
    elastic = BatchSender(http, "/api/v1/connectors/torchelastic", "application/x-ndjson", encode_ndjson,
                          "torchelastic", capacity=cfg.buffer_events, batch=cfg.batch_events,
                          flush_interval=cfg.flush_interval, backoff=Backoff(cap=cfg.max_backoff),
                          query={"job": job, "procsPerNode": str(nproc)})
    submitted = threading.Event()
    elastic.gate(submitted)
    elastic.start()
    if env_bool(os.environ, "LIFELINE_SUBMIT_JOB", True):
        factory = EventFactory(cfg.event_source, job)
        events.add(job_submitted_event(cfg, factory, args.rdzv_id, min_nodes, max_nodes, nproc, args.max_restarts,
                                       gpus_per_node(nproc), launch=launch), LIFECYCLE)

        def _open_gate() -> None:
            # The job first, then its rendezvous; give up waiting after 15 s (Lifeline down): the lines queue.
            events.flush(15.0)
            submitted.set()
        threading.Thread(target=_open_gate, name="lifeline-submit", daemon=True).start()
    else:
        submitted.set()
    # The records' hostname becomes the node name when one was given (two agents on one host, or a pod whose
    # host name is not its node's); otherwise torchelastic's own (the FQDN) stays.
    install(elastic, node=explicit_node, chain=user_handler, launch=launch)
    LOG.info("lifeline: launch %s: torchrun %s", launch, " ".join(new_argv))
    try:
        return trun.main(new_argv)
    finally:
        submitted.set()
        budget = cfg.flush_timeout
        events.close(budget / 2)
        elastic.close(budget / 2)


if __name__ == "__main__":
    main()
