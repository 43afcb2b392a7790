#!/usr/bin/env python3
"""An elastic training job for torchrun that Lifeline keeps alive.

The torchrun-elastic recipe with Lifeline's agent: DDP on a small model and a synthetic dataset, an elastic
sampler whose position is in the checkpoint, the learning rate scaled with the world size (with warm-up when the
world size changed), restore from the newest intact checkpoint on every (re)start, gloo on CPU and nccl on CUDA.
The agent adds: checkpoints when Lifeline asks (checkpoint-now, drain, preempt), a hold after prepare_exit, an
emergency checkpoint on SIGTERM, restore on command, and the events that let Lifeline account for it all.

Run it by hand, two agents on one machine (see docs/trainer-agent.md):

    python -m lifeline_agent.run --nnodes=1:2 --nproc-per-node=1 --rdzv-backend=c10d \
        --rdzv-endpoint=127.0.0.1:29400 --rdzv-id=demo --max-restarts=3 examples/elastic_train.py

With no arguments it trains for about ten minutes and saves every 100 steps to ./checkpoints. It prints one
machine-readable line per fact on stdout (flushed), for tests and scripts:

    LIFELINE_EXAMPLE step=<n> rank=<r> world=<w>
    LIFELINE_EXAMPLE resumed step=<n> checkpoint=<id|none> world=<w> rank=<r>
    LIFELINE_EXAMPLE saved step=<n> checkpoint=<id> reason=<periodic|command|prepare_exit|signal> rank=<r>
    LIFELINE_EXAMPLE save_failed step=<n> reason=<...> rank=<r>
    LIFELINE_EXAMPLE holding step=<n> rank=<r>
    LIFELINE_EXAMPLE hold_ended step=<n> rank=<r>      (the prepare_exit deadline and grace passed: training resumes)
    LIFELINE_EXAMPLE done step=<n> rank=<r>

With --record PATH (or LIFELINE_EXAMPLE_RECORD) it also keeps its own record, the ground truth a drill judges
Lifeline's figures against: one JSON object a line, appended by every rank with a single write, ``t`` the wall clock
(seconds since the epoch) when the fact happened:

    {"t": 1767.512, "event": "step", "step": 17, "rank": 1, "node": "node-b", "restart": 0, "pid": 4242, "world": 2}
    events: start, resumed (the restore and its step), step, saved, save_failed, notice (prepare_exit reached the rank,
            with its deadline), holding, hold_ended, peer_lost (a peer went while holding: this worker ends for
            torchrun to restart it), done
"""

import argparse
import json
import os
import sys
import time

try:
    import lifeline_agent
except ImportError:  # run from a checkout without installing the package
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "clients", "python"))
    import lifeline_agent

from lifeline_agent.checkpoint import CheckpointManager, ElasticDistributedSampler, elastic_lr, set_lr


def out(line):
    sys.stdout.write("LIFELINE_EXAMPLE " + line + "\n")
    sys.stdout.flush()


class Record(object):
    """The script's own record (see the module's doc): what it did and when, by its own clock, written whatever
    Lifeline hears; a no-op without a path."""

    def __init__(self, path):
        self.fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644) if path else None
        self.base = {"node": os.environ.get("LIFELINE_NODE") or os.uname()[1],
                     "restart": int(os.environ.get("TORCHELASTIC_RESTART_COUNT", "0")), "pid": os.getpid(), "rank": -1}

    def __call__(self, event, **fields):
        if self.fd is None:
            return
        rec = {"t": round(time.time(), 3), "event": event}
        rec.update(self.base)
        rec.update(fields)
        # One write per line: the ranks of every node append to the same file without interleaving.
        os.write(self.fd, (json.dumps(rec, separators=(",", ":")) + "\n").encode())


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--steps", type=int, default=None, help="steps to train (default: about ten minutes' worth)")
    p.add_argument("--checkpoint-dir", default="./checkpoints", help="where checkpoints go")
    p.add_argument("--checkpoint-storage", choices=("shared", "node-local"), default=None,
                   help="shared: --checkpoint-dir outlives any node (a shared file system); node-local: it is each "
                        "node's own disk and every node keeps its own copy (default: LIFELINE_CHECKPOINTS_DURABLE)")
    p.add_argument("--checkpoint-every", type=int, default=100, help="periodic checkpoint every N steps (0: never)")
    p.add_argument("--step-time", type=float, default=0.05, help="seconds to sleep per step (a bigger model)")
    p.add_argument("--slow-rank", type=int, default=int(os.environ.get("LIFELINE_EXAMPLE_SLOW_RANK", "-1")),
                   help="global rank that sleeps --slow-seconds more per step (a straggler on purpose; -1: none)")
    p.add_argument("--slow-seconds", type=float, default=float(os.environ.get("LIFELINE_EXAMPLE_SLOW_SECONDS", "0.1")),
                   help="extra seconds per step of --slow-rank")
    p.add_argument("--save-delay", type=float, default=0.0, help="extra seconds every save takes (slow storage)")
    p.add_argument("--batch-size", type=int, default=32, help="samples per rank per step")
    p.add_argument("--lr", type=float, default=0.01, help="learning rate of one rank (scaled with the world size)")
    p.add_argument("--warmup-steps", type=int, default=50, help="steps to reach the new rate after a resize")
    p.add_argument("--dataset-size", type=int, default=200000, help="samples in the synthetic dataset")
    p.add_argument("--keep", type=int, default=3, help="checkpoints kept")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--record", default=os.environ.get("LIFELINE_EXAMPLE_RECORD"),
                   help="the script's own record, JSON lines appended (default: LIFELINE_EXAMPLE_RECORD, else none)")
    a = p.parse_args(argv)
    if a.steps is None:
        a.steps = max(1, int(600.0 / max(a.step_time, 0.001)))
    return a


class Synthetic(object):
    """y = x . w + noise, with x derived from the index: the same data on every rank, nothing to download."""

    def __init__(self, torch, n, features=32, seed=0):
        self.torch = torch
        self.n = n
        g = torch.Generator().manual_seed(seed)
        self.w = torch.randn(features, 1, generator=g)
        self.features = features
        self.seed = seed

    def __len__(self):
        return self.n

    def batch(self, indices):
        torch = self.torch
        idx = torch.tensor(indices, dtype=torch.float64).unsqueeze(1)
        k = torch.arange(1, self.features + 1, dtype=torch.float64).unsqueeze(0)
        x = torch.sin(idx * k * 0.61803 + self.seed).float()
        y = x @ self.w + 0.01 * torch.cos(idx * 1.7).float()
        return x, y


def main(argv=None):
    args = parse_args(argv)
    record = Record(args.record)
    import torch
    import torch.distributed as dist
    import torch.nn as nn

    distributed = "MASTER_ADDR" in os.environ and int(os.environ.get("WORLD_SIZE", "1")) >= 1 and dist.is_available()
    cuda = torch.cuda.is_available()
    if distributed:
        dist.init_process_group("nccl" if cuda else "gloo")
        rank, world = dist.get_rank(), dist.get_world_size()
    else:
        rank, world = 0, 1
    local_rank = int(os.environ.get("LOCAL_RANK", "0"))
    device = torch.device("cuda", local_rank) if cuda else torch.device("cpu")
    if cuda:
        torch.cuda.set_device(device)
    torch.manual_seed(args.seed)
    record.base["rank"] = rank
    record("start", world=world)

    def holding(step):
        record("holding", step=step)
        out("holding step=%d rank=%d" % (step, rank))

    def hold_ended(step):
        record("hold_ended", step=step)
        out("hold_ended step=%d rank=%d" % (step, rank))

    agent = lifeline_agent.init()
    agent.on("hold", holding)
    agent.on("resume", hold_ended)
    agent.on("exit", lambda deadline: record("notice", deadline=deadline.isoformat() if deadline else None))

    model = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 1)).to(device)
    net = nn.parallel.DistributedDataParallel(model, device_ids=[local_rank] if cuda else None) \
        if distributed and world > 1 else model
    opt = torch.optim.SGD(model.parameters(), lr=args.lr, momentum=0.9)
    data = Synthetic(torch, args.dataset_size, seed=args.seed)
    sampler = ElasticDistributedSampler(len(data), num_replicas=world, rank=rank, shuffle=True, seed=args.seed)
    global_batch = args.batch_size * world

    def slow_storage(step, reason):
        if args.save_delay > 0:
            time.sleep(args.save_delay)

    durable = {"shared": True, "node-local": False}.get(args.checkpoint_storage)
    ckpts = CheckpointManager(args.checkpoint_dir, agent=agent, keep=args.keep, before_write=slow_storage,
                              durable=durable)
    state = {"step": 0, "samples": 0, "restored_step": 0, "previous_world": world}

    def restore(checkpoint_id=None):
        r = ckpts.restore(model=model, optimizer=opt, sampler=sampler, checkpoint_id=checkpoint_id,
                          map_location=device)
        if r is None:
            record("resumed", step=0, checkpoint="none", world=world)
            out("resumed step=0 checkpoint=none world=%d rank=%d" % (world, rank))
            return None
        state["step"] = r.step
        state["samples"] = r.samples_seen or r.step * global_batch
        state["restored_step"] = r.step
        state["previous_world"] = r.world_size or world
        record("resumed", step=r.step, checkpoint=r.checkpoint_id, world=world)
        out("resumed step=%d checkpoint=%s world=%d rank=%d" % (r.step, r.checkpoint_id, world, rank))
        return r

    def save(reason):
        step = state["step"]
        try:
            info = ckpts.save(step, model=model, optimizer=opt, sampler=sampler, samples_seen=state["samples"],
                              extra={"base_lr": args.lr, "batch_size": args.batch_size}, reason=reason)
        except Exception as e:  # noqa: BLE001 - reported; training goes on
            record("save_failed", step=step, reason=type(e).__name__)
            out("save_failed step=%d reason=%s rank=%d" % (step, type(e).__name__, rank))
            return None
        record("saved", step=step, checkpoint=info.checkpoint_id, reason=reason)
        out("saved step=%d checkpoint=%s reason=%s rank=%d" % (step, info.checkpoint_id, reason, rank))
        return info

    restore()
    it = iter(sampler)
    loss_fn = nn.MSELoss()
    while state["step"] < args.steps:
        t0 = time.perf_counter()
        indices = []
        while len(indices) < args.batch_size:
            try:
                indices.append(next(it))
            except StopIteration:
                sampler.set_epoch(sampler.epoch + 1)
                it = iter(sampler)
                indices = []
        x, y = data.batch(indices)
        x, y = x.to(device), y.to(device)
        set_lr(opt, elastic_lr(args.lr, world, state["step"], reference_world_size=1,
                               previous_world_size=state["previous_world"], change_step=state["restored_step"],
                               warmup_steps=args.warmup_steps))
        opt.zero_grad(set_to_none=True)
        loss = loss_fn(net(x), y)
        t1 = time.perf_counter()
        loss.backward()                 # DDP waits here for the slowest rank's gradients
        opt.step()
        t2 = time.perf_counter()
        if args.step_time > 0:
            time.sleep(args.step_time)
        if rank == args.slow_rank:
            time.sleep(args.slow_seconds)
        busy = (t1 - t0) + (time.perf_counter() - t2)   # this rank's own work, without the wait for its peers
        state["step"] += 1
        state["samples"] += global_batch
        sampler.advance(global_batch)
        step = state["step"]
        record("step", step=step, world=world)
        out("step=%d rank=%d world=%d" % (step, rank, world))

        task = agent.step(step, samples=global_batch, busy=busy)
        if task is None:
            if args.checkpoint_every and step % args.checkpoint_every == 0:
                save("periodic")
            continue
        if task.kind == "save":
            info = save(task.reason)
            try:
                agent.complete(task, ok=info is not None, checkpoint_id=info.checkpoint_id if info else None)
            except lifeline_agent.PeerLostError as e:
                record("peer_lost", step=step, error=str(e)[:200])
                raise
        elif task.kind == "restore":
            try:
                r = restore(task.checkpoint_id)
                it = iter(sampler)
                agent.complete(task, ok=r is not None, restored_step=r.step if r else None)
            except Exception as e:  # noqa: BLE001
                agent.complete(task, ok=False, detail="restore failed: %s" % e)

    ckpts.wait(30)
    record("done", step=state["step"])
    out("done step=%d rank=%d" % (state["step"], rank))
    lifeline_agent.shutdown()
    if distributed:
        dist.destroy_process_group()


if __name__ == "__main__":
    main()
