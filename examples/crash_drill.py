#!/usr/bin/env python3
"""Crash drills for torchrun: a training job whose workers fail on purpose, so that the recovery ladder has something
to decide about.

Data parallel by hand (one explicit ``all_reduce`` of the gradients per step, gloo on CPU), the trainer agent's
CheckpointManager on each node's own disk (``durable=False``: every node writes its copy), restore from the newest
checkpoint on every (re)start, and one of these failures:

    --fail-at-step S        every rank raises the same RuntimeError at step S, in every attempt (a bad batch, a bug
                            in the code: the workload's own error, which no restart cures)
    --fail-on-node NODE     only the ranks of NODE raise, --fail-after-steps K steps after each (re)start (a node
                            whose GPU or memory fails its workers); the ranks of the other nodes see their peer go
    --once-file PATH        either failure fires once (the first rank to fail creates PATH), for a drill that times
                            one restart

The ranks of a healthy node whose peer died in a collective wait for torchrun to restart them (``--peer-wait``
seconds at most, then exit 1 without an error of their own), as ranks blocked in an NCCL collective do: gloo on CPU
reports the lost peer at once, and a healthy rank reporting an error would read as a failure of its own node.

Besides the agent's reports the script keeps its own record of what it did, the ground truth a drill is judged
against: one JSON object a line in --record (every rank appends; ``t`` is the wall clock, seconds since the epoch), and
the ``LIFELINE_EXAMPLE`` lines of examples/elastic_train.py on stdout, each with ``t=``:

    {"t": 1767.0, "event": "step", "step": 17, "rank": 1, "node": "node-b", "restart": 0, "pid": 4242}
    events: start, resumed, step, saved, failure (about to raise, with the error), peer_lost (a collective failed
            because a peer went), done

Run it by hand without Lifeline (the agent is a no-op without LIFELINE_URL):

    torchrun --nnodes=1 --nproc-per-node=2 --max-restarts=3 examples/crash_drill.py --fail-at-step 30
"""

import argparse
import datetime
import json
import os
import socket
import sys
import time

try:
    import lifeline_agent
except ImportError:  # run from a checkout without installing the package
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "clients", "python"))
    import lifeline_agent

from lifeline_agent.checkpoint import CheckpointManager


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--steps", type=int, default=100000, help="steps to train")
    p.add_argument("--step-time", type=float, default=0.1, help="seconds to sleep per step (a bigger model)")
    p.add_argument("--checkpoint-dir", default="./checkpoints", help="this node's checkpoint directory")
    p.add_argument("--checkpoint-every", type=int, default=20, help="periodic checkpoint every N steps (0: never)")
    p.add_argument("--record", default="./crash-drill.jsonl", help="the script's own record (JSON lines, appended)")
    p.add_argument("--fail-at-step", type=int, default=-1, help="every rank raises at this step (-1: never)")
    p.add_argument("--fail-on-node", default=None, help="the node whose ranks raise")
    p.add_argument("--fail-after-steps", type=int, default=30,
                   help="--fail-on-node: steps after each (re)start before its ranks raise")
    p.add_argument("--fail-delay", type=float, default=0.0,
                   help="seconds a failing step takes before it raises (reading the batch that breaks it)")
    p.add_argument("--once-file", default=None, help="fail once: the first rank to fail creates it, none after")
    p.add_argument("--peer-wait", type=float, default=15.0,
                   help="seconds a rank whose collective lost a peer waits for torchrun's restart before exiting")
    p.add_argument("--pg-timeout", type=float, default=60.0, help="the process group's timeout in seconds")
    p.add_argument("--batch-size", type=int, default=32, help="samples per rank per step")
    p.add_argument("--lr", type=float, default=0.01)
    p.add_argument("--seed", type=int, default=0)
    return p.parse_args(argv)


class Record(object):
    """The script's own record: one JSON line per fact, written with a single append so ranks sharing the file do
    not interleave; and the same fact on stdout as a LIFELINE_EXAMPLE line for whoever reads the job's output."""

    def __init__(self, path, node, restart):
        self.fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
        self.base = {"node": node, "restart": restart, "pid": os.getpid()}
        self.rank = -1

    def __call__(self, event, **fields):
        t = time.time()
        rec = {"t": round(t, 3), "event": event, "rank": self.rank}
        rec.update(self.base)
        rec.update(fields)
        os.write(self.fd, (json.dumps(rec, separators=(",", ":")) + "\n").encode())
        said = " ".join("%s=%s" % (k, str(v).replace(" ", "_")) for k, v in fields.items() if k != "step")
        head = "step=%d" % fields["step"] if event == "step" else event
        if event != "step" and "step" in fields:
            said = ("step=%d " % fields["step"]) + said
        sys.stdout.write("LIFELINE_EXAMPLE %s %s node=%s rank=%d t=%.3f\n"
                         % (head, said, self.base["node"], self.rank, t))
        sys.stdout.flush()


def first_to_fail(path):
    """True unless the drill fires once and already fired (the first caller creates the marker)."""
    if not path:
        return True
    try:
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644))
        return True
    except FileExistsError:
        return False


def main(argv=None):
    args = parse_args(argv)
    import torch
    import torch.distributed as dist
    import torch.nn as nn

    node = os.environ.get("LIFELINE_NODE") or socket.gethostname()
    restart = int(os.environ.get("TORCHELASTIC_RESTART_COUNT", "0"))
    record = Record(args.record, node, restart)
    distributed = "MASTER_ADDR" in os.environ and dist.is_available()
    if distributed:
        dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=args.pg_timeout))
        rank, world = dist.get_rank(), dist.get_world_size()
    else:
        rank, world = 0, 1
    record.rank = rank
    torch.manual_seed(args.seed)
    torch.set_num_threads(1)

    agent = lifeline_agent.init()
    record("start", world=world, fail_at_step=args.fail_at_step, fail_on_node=args.fail_on_node or "none")

    model = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 1))
    params = list(model.parameters())
    opt = torch.optim.SGD(params, lr=args.lr, momentum=0.9)
    w_true = torch.randn(32, 1, generator=torch.Generator().manual_seed(args.seed))
    loss_fn = nn.MSELoss()
    ckpts = CheckpointManager(args.checkpoint_dir, agent=agent, keep=3, durable=False)
    state = {"step": 0, "started": 0}

    def restore(checkpoint_id=None):
        r = ckpts.restore(model=model, optimizer=opt, checkpoint_id=checkpoint_id)
        state["step"] = r.step if r is not None else 0
        record("resumed", step=state["step"], checkpoint=r.checkpoint_id if r is not None else "none", world=world)
        return r

    def save(reason):
        step = state["step"]
        try:
            info = ckpts.save(step, model=model, optimizer=opt, reason=reason)
        except Exception as e:  # noqa: BLE001 - reported; training goes on
            record("save_failed", step=step, reason=type(e).__name__)
            return None
        record("saved", step=step, checkpoint=info.checkpoint_id, reason=reason)
        return info

    def failing(step):
        if args.fail_at_step >= 0 and step == args.fail_at_step:
            return "RuntimeError", "drill: loss is NaN at step %d (bad batch)" % step
        if args.fail_on_node and node == args.fail_on_node and step - state["started"] > args.fail_after_steps:
            return "RuntimeError", "drill: uncorrectable ECC error on %s" % node
        return None

    def all_reduce_gradients(step):
        flat = torch.cat([p.grad.reshape(-1) for p in params])
        if world > 1:
            try:
                dist.all_reduce(flat)
            except Exception as e:  # a peer went: wait for torchrun to restart this rank, as NCCL ranks do
                record("peer_lost", step=step, error=(str(e).splitlines() or [type(e).__name__])[0][:200])
                end = time.monotonic() + args.peer_wait
                while time.monotonic() < end and not agent.should_exit():
                    time.sleep(0.1)
                # Stopped by torchrun (its SIGTERM, which the agent's handler caught) or tired of waiting.
                sys.exit(1)
            flat /= world
        i = 0
        for p in params:
            n = p.grad.numel()
            p.grad.copy_(flat[i:i + n].view_as(p.grad))
            i += n

    restore()
    state["started"] = state["step"]
    while state["step"] < args.steps:
        step = state["step"] + 1           # the step this iteration makes
        x = torch.randn(args.batch_size, 32)
        y = x @ w_true
        opt.zero_grad(set_to_none=True)
        loss = loss_fn(model(x), y)
        loss.backward()
        if args.step_time > 0:
            time.sleep(args.step_time)
        fail = failing(step)
        if fail is not None and first_to_fail(args.once_file):
            time.sleep(args.fail_delay)
            record("failure", step=step, error="%s: %s" % fail)
            raise RuntimeError(fail[1])
        all_reduce_gradients(step)
        opt.step()
        state["step"] = step
        record("step", step=step, world=world, loss=round(float(loss.detach()), 5))

        task = agent.step(step, samples=args.batch_size * world)
        if task is None:
            if args.checkpoint_every and step % args.checkpoint_every == 0:
                save("periodic")
        elif task.kind == "save":
            info = save(task.reason)
            agent.complete(task, ok=info is not None, checkpoint_id=info.checkpoint_id if info else None)
        elif task.kind == "restore":
            try:
                r = restore(task.checkpoint_id)
                agent.complete(task, ok=r is not None, restored_step=r.step if r else None)
            except Exception as e:  # noqa: BLE001
                agent.complete(task, ok=False, detail="restore failed: %s" % e)

    ckpts.wait(30)
    record("done", step=state["step"])
    lifeline_agent.shutdown()
    if distributed:
        dist.destroy_process_group()


if __name__ == "__main__":
    main()
