"""Checkpoint helpers: atomic saves, checksums, verification, retention, restore at another world size."""

from __future__ import annotations

import json
import os
import random
import shutil
import socket
import subprocess
import sys
import tempfile
import unittest
from typing import Any

from _fakes import FakeLifeline, base_env, optional_torch

from lifeline_agent.agent import Agent, NoopAgent
from lifeline_agent.checkpoint import (CheckpointManager, ElasticDistributedSampler, atomic_write_bytes, elastic_lr,
                                       scaled_lr)
from lifeline_agent.config import Config

torch = optional_torch()  # None in a standard-library-only run, which skips what needs torch

needs_torch = unittest.skipIf(torch is None, "torch is not installed")


class SamplerTest(unittest.TestCase):
    """Standard library only."""

    def batches(self, sampler_per_rank: list[ElasticDistributedSampler], per_rank_batch: int) -> list[list[int]]:
        its = [iter(s) for s in sampler_per_rank]
        out: list[list[int]] = []
        while True:
            b: list[int] = []
            try:
                for it in its:
                    for _ in range(per_rank_batch):
                        b.append(next(it))
            except StopIteration:
                return out
            out.append(b)

    def test_global_batches_are_contiguous_slices_of_the_epoch_for_any_world_size(self) -> None:
        n, per_rank = 1000, 4
        for world in (1, 2, 3, 5):
            samplers = [ElasticDistributedSampler(n, world, r, seed=3) for r in range(world)]
            order = samplers[0]._order()
            for k, b in enumerate(self.batches(samplers, per_rank)[:20]):
                g = per_rank * world
                self.assertEqual(sorted(b), sorted(order[k * g:(k + 1) * g]))

    def test_resuming_at_another_world_size_neither_repeats_nor_skips(self) -> None:
        n, per_rank = 600, 5
        seen = []
        a = [ElasticDistributedSampler(n, 2, r, seed=1) for r in range(2)]
        for b in self.batches(a, per_rank)[:17]:        # 17 steps at world 2
            seen.extend(b)
            for s in a:
                s.advance(per_rank * 2)
        state = a[0].state_dict()
        self.assertEqual(state["start"], 17 * 10)
        b3 = [ElasticDistributedSampler(n, 3, r, seed=1) for r in range(3)]
        for s in b3:
            s.load_state_dict(json.loads(json.dumps(state)))   # it travels in the checkpoint
        for b in self.batches(b3, per_rank):
            seen.extend(b)
        self.assertEqual(len(seen), len(set(seen)), "a sample was seen twice")
        self.assertGreaterEqual(len(set(seen)), n - 3 * per_rank)

    def test_epochs_reshuffle(self) -> None:
        s = ElasticDistributedSampler(50, 1, 0, seed=0)
        e0 = list(s)
        s.set_epoch(1)
        self.assertNotEqual(e0, list(s))
        self.assertEqual(sorted(e0), list(range(50)))


class LrTest(unittest.TestCase):
    def test_linear_scaling_with_warmup_after_a_resize(self) -> None:
        self.assertEqual(scaled_lr(0.1, 8), 0.8)
        self.assertEqual(scaled_lr(0.1, 8, reference_world_size=4), 0.2)
        self.assertAlmostEqual(elastic_lr(0.1, 4, step=100, previous_world_size=2, change_step=100,
                                          warmup_steps=10), 0.2)
        self.assertAlmostEqual(elastic_lr(0.1, 4, step=105, previous_world_size=2, change_step=100,
                                          warmup_steps=10), 0.3)
        self.assertAlmostEqual(elastic_lr(0.1, 4, step=200, previous_world_size=2, change_step=100,
                                          warmup_steps=10), 0.4)
        self.assertAlmostEqual(elastic_lr(0.1, 4, step=5), 0.4)


class AtomicWriteTest(unittest.TestCase):
    def test_atomic_write_leaves_no_temporary_file(self) -> None:
        d = tempfile.mkdtemp()
        try:
            p = os.path.join(d, "x.json")
            atomic_write_bytes(p, b"one")
            atomic_write_bytes(p, b"two")
            with open(p, "rb") as f:
                self.assertEqual(f.read(), b"two")
            self.assertEqual(os.listdir(d), ["x.json"])
        finally:
            shutil.rmtree(d)


@needs_torch
class ManagerTest(unittest.TestCase):
    def setUp(self) -> None:
        self.lifeline = FakeLifeline()
        self.dir = tempfile.mkdtemp()
        self.agent = Agent(Config.from_env(base_env(self.lifeline.url, LIFELINE_EXCEPTION_HOOK="0",
                                                    TORCHELASTIC_RESTART_COUNT="2")), install_signals=False)

    def tearDown(self) -> None:
        self.agent.close(1)
        self.lifeline.close()
        shutil.rmtree(self.dir, ignore_errors=True)

    def model(self, seed: int = 0) -> tuple[Any, Any]:
        torch.manual_seed(seed)
        m = torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.ReLU(), torch.nn.Linear(8, 1))
        opt = torch.optim.SGD(m.parameters(), lr=0.1, momentum=0.9)
        m(torch.randn(3, 4)).sum().backward()
        opt.step()
        return m, opt

    def test_save_writes_atomically_and_reports_started_completed_verified(self) -> None:
        m, opt = self.model()
        ck = CheckpointManager(self.dir, agent=self.agent, verify="sync")
        info = ck.save(10, model=m, optimizer=opt, reason="periodic")
        assert info.path is not None and info.checksum is not None
        self.assertEqual(info.checkpoint_id, "step-10-run1-r2")
        self.assertEqual(sorted(os.listdir(self.dir)), ["step-10-run1-r2"])
        self.assertEqual(sorted(os.listdir(info.path)), ["manifest.json", "state.pt"])
        with open(os.path.join(info.path, "manifest.json")) as f:
            manifest = json.load(f)
        self.assertEqual(manifest["step"], 10)
        self.assertTrue(info.checksum.startswith("sha256:") and len(info.checksum) == 71)
        self.agent.flush(3)
        types = [e["type"] for e in self.lifeline.events() if e["type"].startswith("trainer.checkpoint")]
        self.assertEqual(types, ["trainer.checkpoint.started", "trainer.checkpoint.completed",
                                 "trainer.checkpoint.verified"])
        done = self.lifeline.events("trainer.checkpoint.completed")[0]["data"]
        self.assertEqual(set(done), {"checkpointId", "step", "bytes", "durationSeconds", "blockingSeconds", "uri",
                                     "checksum", "shards", "async", "worldSize", "replicas", "freeBytes",
                                     "capacityBytes"})
        self.assertLessEqual(done["freeBytes"], done["capacityBytes"])
        self.assertEqual(done["replicas"], ["node-a"])     # not declared durable: on this node's disk
        self.assertEqual(done["uri"], "file://" + info.path + "/")
        self.assertEqual(done["bytes"], os.path.getsize(os.path.join(info.path, "state.pt")))
        self.assertIsInstance(done["bytes"], int)
        self.assertEqual(self.lifeline.events("trainer.checkpoint.verified")[0]["data"]["ok"], True)

    def test_a_corrupt_checkpoint_is_verified_false_and_latest_skips_it(self) -> None:
        m, opt = self.model()
        ck = CheckpointManager(self.dir, agent=self.agent, verify="off", keep=5)
        ck.save(10, model=m, optimizer=opt)
        newest = ck.save(20, model=m, optimizer=opt)
        assert newest.path is not None
        state = os.path.join(newest.path, "state.pt")
        with open(state, "r+b") as f:
            f.seek(100)
            f.write(b"\x00garbage\x00")
        self.assertEqual(ck.verify(newest.checkpoint_id)[0], False)
        latest = ck.latest()
        assert latest is not None
        self.assertEqual(latest["step"], 10)
        self.agent.flush(3)
        verified = self.lifeline.events("trainer.checkpoint.verified")
        bad = [v for v in verified if v["data"]["checkpointId"] == newest.checkpoint_id]
        self.assertTrue(bad and all(v["data"]["ok"] is False for v in bad))
        self.assertNotEqual(bad[0]["data"]["checksum"], newest.checksum)
        # restore falls back to the intact one
        m2, opt2 = self.model(seed=5)
        r = ck.restore(model=m2, optimizer=opt2)
        assert r is not None
        self.assertEqual(r.step, 10)

    def test_a_truncated_or_half_written_checkpoint_is_never_taken(self) -> None:
        m, opt = self.model()
        ck = CheckpointManager(self.dir, agent=self.agent, verify="off")
        good = ck.save(5, model=m, optimizer=opt)
        assert good.path is not None
        os.makedirs(os.path.join(self.dir, ".tmp-step-9-run1-r2-123"))      # a crash mid-save
        half = os.path.join(self.dir, "step-9-run1-r2")
        shutil.copytree(good.path, half)
        os.truncate(os.path.join(half, "state.pt"), 10)
        self.assertEqual((ck.latest() or {}).get("checkpointId"), good.checkpoint_id)

    def test_retention_keeps_the_newest_intact_ones(self) -> None:
        m, opt = self.model()
        ck = CheckpointManager(self.dir, agent=self.agent, verify="sync", keep=2)
        for s in (1, 2, 3, 4):
            ck.save(s, model=m, optimizer=opt)
        self.assertEqual(sorted(os.listdir(self.dir)), ["step-3-run1-r2", "step-4-run1-r2"])

    def test_restore_brings_back_model_optimizer_sampler_rng_and_reports_restored(self) -> None:
        m, opt = self.model()
        sampler = ElasticDistributedSampler(100, 2, 0)
        sampler.advance(40)
        ck = CheckpointManager(self.dir, agent=self.agent, verify="off")
        random.seed(42)
        torch.manual_seed(42)
        ck.save(30, model=m, optimizer=opt, sampler=sampler, samples_seen=960, extra={"note": "x"})
        expected_py, expected_torch = random.random(), torch.rand(1)
        m2, opt2 = self.model(seed=9)
        s2 = ElasticDistributedSampler(100, 3, 1)
        r = CheckpointManager(self.dir, agent=self.agent).restore(model=m2, optimizer=opt2, sampler=s2)
        assert r is not None
        self.assertEqual((r.step, r.world_size, r.samples_seen, r.extra), (30, 1, 960, {"note": "x"}))
        for a, b in zip(m.state_dict().values(), m2.state_dict().values()):
            self.assertTrue(torch.equal(a, b))
        self.assertEqual(opt2.state_dict()["state"].keys(), opt.state_dict()["state"].keys())
        self.assertEqual((s2.start, s2.num_replicas, s2.rank), (40, 3, 1))
        self.assertEqual(random.random(), expected_py)
        self.assertTrue(torch.equal(torch.rand(1), expected_torch))
        self.agent.flush(3)
        restored = self.lifeline.events("trainer.restored")
        self.assertEqual(restored[0]["data"], {"checkpointId": "step-30-run1-r2", "step": 30, "runId": "run1"})

    def test_restore_after_a_save_gets_a_new_branch_of_ids(self) -> None:
        m, opt = self.model()
        ck = CheckpointManager(self.dir, agent=self.agent, verify="off", keep=10)
        ck.save(10, model=m, optimizer=opt)
        ck.save(20, model=m, optimizer=opt)
        ck.restore(model=m, optimizer=opt, checkpoint_id="step-10-run1-r2")    # Lifeline's restore_from
        self.assertEqual(ck.save(20, model=m, optimizer=opt).checkpoint_id, "step-20-run1-r2-b1")

    def test_can_restore_answers_for_restore_from(self) -> None:
        m, opt = self.model()
        ck = CheckpointManager(self.dir, agent=self.agent, verify="off")
        info = ck.save(10, model=m, optimizer=opt)
        self.assertEqual(ck.can_restore(info.checkpoint_id), (True, None))
        self.assertFalse(ck.can_restore("step-99-x")[0])
        self.assertEqual(ck.can_restore("other-name", info.uri), (True, None))

    def test_a_failed_save_reports_failed_and_leaves_no_directory(self) -> None:
        m, opt = self.model()

        def broken(step: int, reason: str) -> None:
            raise OSError("No space left on device")
        ck = CheckpointManager(self.dir, agent=self.agent, before_write=broken)
        with self.assertRaises(OSError):
            ck.save(7, model=m, optimizer=opt)
        self.assertEqual(os.listdir(self.dir), [])
        self.agent.flush(3)
        failed = self.lifeline.events("trainer.checkpoint.failed")[0]["data"]
        self.assertEqual(failed, {"checkpointId": "step-7-run1-r2", "step": 7,
                                  "error": "OSError: No space left on device"})

    def test_async_write_reports_blocking_time_below_duration(self) -> None:
        m, opt = self.model()

        def slow(step: int, reason: str) -> None:
            pass
        ck = CheckpointManager(self.dir, agent=self.agent, async_write=True, verify="off", before_write=slow)
        info = ck.save(3, model=m, optimizer=opt, reason="periodic")
        self.assertTrue(ck.wait(10))
        self.agent.flush(3)
        done = self.lifeline.events("trainer.checkpoint.completed")[0]["data"]
        self.assertTrue(done["async"])
        self.assertLessEqual(done["blockingSeconds"], done["durationSeconds"])
        self.assertIsNotNone(info.blocking)

    def test_works_without_lifeline(self) -> None:
        NoopAgent._warned = True
        m, opt = self.model()
        ck = CheckpointManager(self.dir, agent=NoopAgent(Config.from_env({})))
        ck.save(1, model=m, optimizer=opt)
        self.assertEqual(getattr(ck.restore(model=m, optimizer=opt), "step", None), 1)

    def test_sharded_checkpoint_with_torch_distributed_checkpoint(self) -> None:
        try:
            import torch.distributed.checkpoint  # noqa: F401
        except ImportError:
            self.skipTest("no torch.distributed.checkpoint")
        import warnings
        warnings.filterwarnings("ignore", message="torch.distributed is disabled")
        m, opt = self.model()
        ck = CheckpointManager(self.dir, agent=self.agent, format="dcp", verify="sync")
        info = ck.save(12, model=m, optimizer=opt)
        assert info.path is not None
        self.assertIn("meta.pt", os.listdir(info.path))
        self.assertTrue(ck.verify(info.checkpoint_id)[0])
        m2, opt2 = self.model(seed=3)
        r = ck.restore(model=m2, optimizer=opt2)
        assert r is not None
        self.assertEqual(r.step, 12)
        for a, b in zip(m.state_dict().values(), m2.state_dict().values()):
            self.assertTrue(torch.equal(a, b))


    def completed(self) -> list[dict[str, Any]]:
        self.agent.flush(3)
        return [e["data"] for e in self.lifeline.events("trainer.checkpoint.completed")]

    def test_the_declaration_goes_with_every_checkpoint(self) -> None:
        m, opt = self.model()
        CheckpointManager(os.path.join(self.dir, "shared"), agent=self.agent, verify="off",
                          durable=True).save(1, model=m, optimizer=opt)
        CheckpointManager(os.path.join(self.dir, "local"), agent=self.agent, verify="off",
                          durable=False).save(2, model=m, optimizer=opt)
        CheckpointManager(os.path.join(self.dir, "unsaid"), agent=self.agent, verify="off").save(3, model=m,
                                                                                                 optimizer=opt)
        shared, local, unsaid = self.completed()
        self.assertIs(shared["durable"], True)
        self.assertNotIn("replicas", shared)
        self.assertIs(local["durable"], False)
        self.assertEqual(local["replicas"], ["node-a"])
        self.assertNotIn("durable", unsaid)
        self.assertEqual(unsaid["replicas"], ["node-a"])

    def test_the_environment_declares_what_the_script_does_not(self) -> None:
        self.agent.config.checkpoints_durable = True
        m, opt = self.model()
        CheckpointManager(os.path.join(self.dir, "a"), agent=self.agent, verify="off").save(1, model=m, optimizer=opt)
        CheckpointManager(os.path.join(self.dir, "b"), agent=self.agent, verify="off",
                          durable=False).save(2, model=m, optimizer=opt)
        by_env, by_script = self.completed()
        self.assertIs(by_env["durable"], True)
        self.assertIs(by_script["durable"], False)

    def test_a_copy_another_node_wrote_into_the_same_directory_is_kept_not_replaced(self) -> None:
        # Two nodes that share a directory they did not declare durable both write an exit save into it.
        m, opt = self.model()
        mine = CheckpointManager(self.dir, agent=self.agent, verify="off", durable=False)
        first = mine.save(5, model=m, optimizer=opt, reason="prepare_exit")
        assert first.path is not None
        with open(os.path.join(first.path, "manifest.json")) as f:
            manifest = json.load(f)
        manifest["node"] = "node-b"                      # as if node-b had renamed its copy into place first
        atomic_write_bytes(os.path.join(first.path, "manifest.json"), json.dumps(manifest).encode("utf-8"))
        with self.assertLogs("lifeline_agent", "WARNING") as logs:
            again = mine.save(5, model=m, optimizer=opt, reason="prepare_exit")
        self.assertEqual(again.checkpoint_id, first.checkpoint_id)
        self.assertEqual(sorted(os.listdir(self.dir)), [first.checkpoint_id])
        with open(os.path.join(first.path, "manifest.json")) as f:
            self.assertEqual(json.load(f)["node"], "node-b")
        self.assertTrue(any("share this directory" in line for line in logs.output))
        self.assertTrue(mine.verify(first.checkpoint_id, emit=False)[0])


_TWO_NODES = r"""
import json, os, sys
import torch
import torch.distributed as dist
from lifeline_agent.agent import Agent
from lifeline_agent.config import Config
from lifeline_agent.checkpoint import CheckpointManager

dist.init_process_group("gloo", init_method="env://")
rank = dist.get_rank()
agent = Agent(Config.from_env(), install_signals=False)
declared = {"true": True, "false": False, "none": None}[sys.argv[1]]
torch.manual_seed(100 + rank)                    # each rank starts from its own weights
model = torch.nn.Linear(4, 2)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
ck = CheckpointManager(os.environ["CKPT_DIR"], agent=agent, verify="sync", durable=declared)
out = {"rank": rank}
for action in sys.argv[2:]:
    kind, _, arg = action.partition(":")
    if kind == "save":
        step, reason = arg.split(",")
        if rank == 0:
            torch.manual_seed(int(step))
            with torch.no_grad():
                for p in model.parameters():
                    p.copy_(torch.randn_like(p))
        dist.broadcast(model.weight.data, 0); dist.broadcast(model.bias.data, 0)
        info = ck.save(int(step), model=model, optimizer=opt, reason=reason)
        out.setdefault("saved", []).append(info.checkpoint_id)
    elif kind == "restore":
        with torch.no_grad():
            for p in model.parameters():
                p.zero_()
        r = ck.restore(model=model, optimizer=opt)
        out["restored"] = r.checkpoint_id if r else None
        out["weights"] = model.weight.data.sum().item()
out["files"] = sorted(n for n in os.listdir(os.environ["CKPT_DIR"]) if not n.startswith("."))
agent.close(5)
dist.barrier()
dist.destroy_process_group()
print("RESULT " + json.dumps(out), flush=True)
"""


@needs_torch
class TwoNodesTest(unittest.TestCase):
    """Two ranks on two "nodes" (one rank each, gloo on CPU), each with a directory of its own disk."""

    def setUp(self) -> None:
        self.lifeline = FakeLifeline()
        self.dir = tempfile.mkdtemp()
        self.script = os.path.join(self.dir, "two_nodes.py")
        with open(self.script, "w") as f:
            f.write(_TWO_NODES)

    def tearDown(self) -> None:
        self.lifeline.close()
        shutil.rmtree(self.dir, ignore_errors=True)

    def node_dir(self, node: str) -> str:
        return os.path.join(self.dir, node)

    def run_job(self, declared: str, *actions: str) -> list[Any]:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        procs: list[subprocess.Popen[str]] = []
        here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        for rank, node in enumerate(("node-a", "node-b")):
            env = dict(os.environ)
            env.update(base_env(self.lifeline.url, LIFELINE_NODE=node, LIFELINE_EXCEPTION_HOOK="0", RANK=rank,
                                LOCAL_RANK=0, WORLD_SIZE=2, LOCAL_WORLD_SIZE=1, GROUP_RANK=rank,
                                MASTER_ADDR="127.0.0.1", MASTER_PORT=port, CKPT_DIR=self.node_dir(node),
                                PYTHONPATH=here, OMP_NUM_THREADS=1))
            procs.append(subprocess.Popen([sys.executable, self.script, declared] + list(actions), env=env,
                                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True))
        results: list[Any] = []
        for p in procs:
            out, err = p.communicate(timeout=120)
            self.assertEqual(p.returncode, 0, err[-3000:])
            results.append(json.loads([line for line in out.splitlines() if line.startswith("RESULT ")][-1][7:]))
        return results

    def completed(self, cid: str) -> Any:
        return self.lifeline.wait_for(lambda: next((e["data"] for e in self.lifeline.events(
            "trainer.checkpoint.completed") if e["data"]["checkpointId"] == cid), None))

    def test_node_local_checkpoints_are_kept_on_every_node_and_reported_with_both(self) -> None:
        a, b = self.run_job("false", "save:10,periodic")
        cid = a["saved"][0]
        self.assertEqual(b["saved"], [cid])
        self.assertEqual(a["files"], [cid])
        self.assertEqual(b["files"], [cid])
        done = self.completed(cid)
        self.assertIs(done["durable"], False)
        self.assertEqual(done["replicas"], ["node-a", "node-b"])
        self.assertEqual(len([e for e in self.lifeline.events("trainer.checkpoint.completed")]), 1)

    def test_a_node_that_lost_its_disk_gets_the_newest_checkpoint_from_the_other_and_both_restore_it(self) -> None:
        a, _ = self.run_job("false", "save:10,periodic", "save:20,periodic")
        shutil.rmtree(self.node_dir("node-b"))             # a new node in place of node-b
        a2, b2 = self.run_job("false", "restore")
        newest = a["saved"][-1]
        self.assertEqual((a2["restored"], b2["restored"]), (newest, newest))
        self.assertAlmostEqual(a2["weights"], b2["weights"], places=5)
        self.assertNotEqual(a2["weights"], 0.0)
        self.assertIn(newest, b2["files"])                   # node-b keeps its own copy now

    def test_not_declared_the_periodic_saves_stay_with_rank_0_and_an_exit_save_goes_to_every_node(self) -> None:
        a, b = self.run_job("none", "save:10,periodic", "save:11,prepare_exit")
        periodic, exit_save = a["saved"]
        self.assertEqual(a["files"], [exit_save, periodic] if exit_save < periodic else [periodic, exit_save])
        self.assertEqual(b["files"], [exit_save])
        self.assertEqual(self.completed(periodic)["replicas"], ["node-a"])
        self.assertEqual(self.completed(exit_save)["replicas"], ["node-a", "node-b"])
        self.assertNotIn("durable", self.completed(exit_save))

    def test_declared_durable_only_rank_0_writes(self) -> None:
        a, b = self.run_job("true", "save:10,prepare_exit")
        self.assertEqual(a["files"], a["saved"])
        self.assertEqual(b["files"], [])
        done = self.completed(a["saved"][0])
        self.assertIs(done["durable"], True)
        self.assertNotIn("replicas", done)


if __name__ == "__main__":
    unittest.main()
