#!/usr/bin/env python3
"""Hang drills for torchrun: a training job that stops making progress on purpose, once, without crashing.

Data parallel by hand (one explicit ``all_reduce`` of the gradients per step, gloo on CPU, so a rank waiting for
its peers shows that call in its Python stack), the trainer agent's CheckpointManager on each node's own disk
(``durable=False``: every node writes its copy, so a save is a collective every rank takes part in), restore from the
newest checkpoint on every (re)start, and one of these drills:

    --hang collective   rank --hang-rank sleeps for ever just before the all_reduce of step --hang-step; the others
                        enter the all_reduce and wait in it (until the process group's timeout, --pg-timeout)
    --hang save         the periodic save of step --hang-step never returns on rank --hang-rank (it sleeps for ever
                        inside the agent's saving phase); the others wait for it inside the save's own collective
    --slow-save-step S  (healthy) the save of step S takes --slow-save-seconds on every node
    --eval-step E       (healthy) at step E rank 0 evaluates for --eval-seconds inside agent.phase("evaluation")
                        while the other ranks wait for it in a barrier

A hang fires once per drill (the rank that hangs first creates --once-file): after the workers are restarted the
job trains on past it. Besides the agent's reports the script keeps its own record of what it did, the ground truth a
drill is judged against: one JSON object a line in --record (every rank appends; ``t`` is the wall clock, seconds since
the epoch), and the ``LIFELINE_EXAMPLE`` lines of examples/elastic_train.py on stdout, each with ``t=``:

    {"t": 1767.0, "event": "step", "step": 17, "rank": 1, "node": "node-b", "restart": 0, "pid": 4242}
    events: start, resumed, step, saved, hang (about to block for ever), eval_start, eval_end, slow_save_start,
            slow_save_end, collective_failed (the process group's timeout, with the error), done

Run it by hand without Lifeline (the agent is a no-op without LIFELINE_URL):

    torchrun --nnodes=1 --nproc-per-node=2 examples/hang_drill.py --hang collective --hang-step 30 --pg-timeout 20
"""

import argparse
import contextlib
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
    env = os.environ.get
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--steps", type=int, default=100000, help="steps to train")
    p.add_argument("--step-time", type=float, default=0.1, help="seconds to sleep per step (a bigger model)")
    p.add_argument("--checkpoint-dir", default="./checkpoints", help="this node's checkpoint directory")
    p.add_argument("--checkpoint-every", type=int, default=20, help="periodic checkpoint every N steps (0: never)")
    p.add_argument("--record", default="./hang-drill.jsonl", help="the script's own record (JSON lines, appended)")
    p.add_argument("--hang", choices=("none", "collective", "save"), default=env("LIFELINE_DRILL_HANG", "none"),
                   help="the hang to play (default: LIFELINE_DRILL_HANG, else none)")
    p.add_argument("--hang-step", type=int, default=int(env("LIFELINE_DRILL_HANG_STEP", "80")),
                   help="collective: the step whose all_reduce the rank never reaches; save: the step whose save "
                        "never returns (a multiple of --checkpoint-every)")
    p.add_argument("--hang-rank", type=int, default=int(env("LIFELINE_DRILL_HANG_RANK", "1")),
                   help="the global rank that hangs")
    p.add_argument("--once-file", default=None,
                   help="created by the rank that hangs; no hang once it exists (default: --record + '.fired')")
    p.add_argument("--slow-save-step", type=int, default=-1, help="the step whose save is slow (-1: none)")
    p.add_argument("--slow-save-seconds", type=float, default=12.0, help="how long that save takes")
    p.add_argument("--eval-step", type=int, default=-1, help="the step after which rank 0 evaluates (-1: none)")
    p.add_argument("--eval-seconds", type=float, default=12.0, help="how long the evaluation takes")
    p.add_argument("--pg-timeout", type=float, default=90.0, help="the process group's timeout in seconds")
    p.add_argument("--batch-size", type=int, default=32, help="samples per rank per step")
    p.add_argument("--lr", type=float, default=0.01)
    p.add_argument("--seed", type=int, default=0)
    a = p.parse_args(argv)
    if a.once_file is None:
        a.once_file = a.record + ".fired"
    return a


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
        said = " ".join("%s=%s" % (k, str(v).replace(" ", "_")) for k, v in fields.items())
        head = "step=%d" % fields["step"] if event == "step" else event
        if event == "step":
            said = " ".join("%s=%s" % (k, v) for k, v in fields.items() if k != "step")
        sys.stdout.write("LIFELINE_EXAMPLE %s %s rank=%d t=%.3f\n" % (head, said, self.rank, t))
        sys.stdout.flush()


def fire_once(path):
    """True for the first caller of the drill (it creates the marker), False ever after."""
    try:
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644))
        return True
    except FileExistsError:
        return False


def sleep_forever():
    """A rank stuck for good (a dead storage mount, a deadlocked data loader): it never returns."""
    while True:
        time.sleep(1.0)


def save_that_never_returns(step):
    """A checkpoint write stuck for good, inside the agent's saving phase."""
    while True:
        time.sleep(1.0)


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
        # Short, so that a hang nobody recovers from ends the run within a drill's time.
        dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=args.pg_timeout))
        rank, world = dist.get_rank(), dist.get_world_size()
    else:
        rank, world = 0, 1
    record.rank = rank
    torch.manual_seed(args.seed)
    torch.set_num_threads(1)

    agent = lifeline_agent.init()
    phase = getattr(agent, "phase", None)
    record("start", world=world, hang=args.hang, hang_step=args.hang_step, hang_rank=args.hang_rank,
           phases=phase is not None)

    model = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 1))
    params = list(model.parameters())
    opt = torch.optim.SGD(params, lr=args.lr, momentum=0.9)
    w_true = torch.randn(32, 1, generator=torch.Generator().manual_seed(args.seed))
    loss_fn = nn.MSELoss()

    def before_write(step, reason):
        # Called by the CheckpointManager after the save began (the agent's saving phase) and before the write.
        if args.hang == "save" and rank == args.hang_rank and step == args.hang_step and fire_once(args.once_file):
            record("hang", step=step, kind="save")
            save_that_never_returns(step)
        if step == args.slow_save_step:
            record("slow_save_start", step=step, seconds=args.slow_save_seconds)
            time.sleep(args.slow_save_seconds)
            record("slow_save_end", step=step)

    ckpts = CheckpointManager(args.checkpoint_dir, agent=agent, keep=3, before_write=before_write, durable=False)
    state = {"step": 0}

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

    def all_reduce_gradients(step):
        flat = torch.cat([p.grad.reshape(-1) for p in params])
        if world > 1:
            try:
                dist.all_reduce(flat)
            except Exception as e:  # the process group's timeout: the run ends here, as a real hang ends
                record("collective_failed", step=step, error=str(e).splitlines()[0][:300] if str(e) else type(e).__name__)
                raise
            flat /= world
        i = 0
        for p in params:
            n = p.grad.numel()
            p.grad.copy_(flat[i:i + n].view_as(p.grad))
            i += n

    def evaluate(step):
        with (phase("evaluation") if phase is not None else contextlib.nullcontext()):
            record("eval_start", step=step, seconds=args.eval_seconds, declared=phase is not None)
            end = time.monotonic() + args.eval_seconds
            with torch.no_grad():
                while time.monotonic() < end:
                    x = torch.randn(args.batch_size, 32)
                    loss_fn(model(x), x @ w_true)
                    time.sleep(0.05)
            record("eval_end", step=step)

    restore()
    while state["step"] < args.steps:
        step = state["step"] + 1           # the step this iteration makes
        x = torch.randn(args.batch_size, 32)
        y = x @ w_true
        opt.zero_grad(set_to_none=True)
        loss = loss_fn(model(x), y)
        loss.backward()
        if args.step_time > 0:
            time.sleep(args.step_time)
        if args.hang == "collective" and rank == args.hang_rank and step == args.hang_step \
                and fire_once(args.once_file):
            record("hang", step=step, kind="collective")
            sleep_forever()
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
        if step == args.eval_step:
            if rank == 0:
                evaluate(step)
            if world > 1:
                dist.barrier()             # the other ranks wait here for rank 0's evaluation

    ckpts.wait(30)
    record("done", step=state["step"])
    lifeline_agent.shutdown()
    if distributed:
        dist.destroy_process_group()


if __name__ == "__main__":
    main()
