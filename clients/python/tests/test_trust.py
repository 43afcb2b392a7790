"""The free-space guard and the trust of checkpoints: the rules by hand, the helpers with a patched file system, and
real torchrun runs on a small file system that fills and with a loss that goes to NaN."""

from __future__ import annotations

import errno
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile
import textwrap
import unittest
from typing import Any
from unittest import mock

from _fakes import FakeLifeline, base_env, free_port, optional_torch

from lifeline_agent import checkpoint_guard
from lifeline_agent.agent import Agent, NoopAgent
from lifeline_agent.checkpoint import CheckpointManager, NoSpaceError
from lifeline_agent.checkpoint_guard import check_space, is_no_space, needed_bytes
from lifeline_agent.config import Config
from lifeline_agent.trust import NON_FINITE, SPIKE, LossWatch, loss_from_wire, loss_wire

torch = optional_torch()
needs_torch = unittest.skipIf(torch is None, "torch is not installed")
PKG = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class LossWatchTest(unittest.TestCase):
    """Standard library only: the rules with numbers worked by hand."""

    def test_a_non_finite_loss_is_suspect_whatever_the_window(self) -> None:
        w = LossWatch(10.0)
        self.assertEqual(w.judge(math.nan), NON_FINITE)
        self.assertEqual(w.judge(math.inf), NON_FINITE)
        self.assertEqual(w.judge(-math.inf), NON_FINITE)
        self.assertIsNone(w.judge(None))

    def test_a_spike_is_above_factor_times_the_median_of_the_window(self) -> None:
        w = LossWatch(10.0)
        for v in (1.0, 3.0, 2.0, 2.0, 5.0):     # sorted 1 2 2 3 5: median 2, threshold 20
            w.add(v)
        self.assertIsNone(w.judge(20.0))        # not above
        self.assertEqual(w.judge(20.5), SPIKE)
        self.assertIsNone(w.judge(0.1))

    def test_too_few_losses_or_a_non_positive_median_judge_no_spike(self) -> None:
        w = LossWatch(10.0)
        for v in (1.0, 1.0, 1.0, 1.0):           # four: fewer than five
            w.add(v)
        self.assertIsNone(w.judge(1000.0))
        n = LossWatch(10.0)
        for v in (-5.0, -4.0, -3.0, -2.0, -1.0):
            n.add(v)
        self.assertIsNone(n.judge(1000.0))

    def test_the_window_is_bounded_and_takes_finite_losses_only(self) -> None:
        w = LossWatch(10.0, window=50)
        for _ in range(100):
            w.add(100.0)
        for _ in range(50):
            w.add(1.0)                           # the hundreds are gone: median 1
        w.add(math.nan)
        self.assertEqual(len(w), 50)
        self.assertEqual(w.judge(11.0), SPIKE)

    def test_the_wire_form_of_a_loss(self) -> None:
        self.assertEqual(loss_wire(0.25), 0.25)
        self.assertEqual(loss_wire(math.nan), "nan")
        self.assertEqual(loss_wire(math.inf), "inf")
        self.assertEqual(loss_wire(-math.inf), "-inf")
        self.assertIsNone(loss_wire("junk"))
        self.assertTrue(math.isnan(loss_from_wire("nan") or 0.0))
        self.assertIsNone(loss_from_wire("NaN!"))
        self.assertIsNone(loss_from_wire(True))

    def test_progress_carries_the_loss_and_a_nan_as_a_string(self) -> None:
        a = NoopAgent(warn=False)
        self.assertEqual(a.events.progress("k", 3, loss=0.5)["data"]["loss"], 0.5)
        self.assertEqual(a.events.progress("k", 3, loss=math.nan)["data"]["loss"], "nan")
        self.assertNotIn("loss", a.events.progress("k", 3)["data"])
        json.dumps(a.events.progress("k", 3, loss=math.inf), allow_nan=False)


class GuardTest(unittest.TestCase):
    """Standard library only: the guard against a file system whose free space the test decides."""

    def test_needed_is_the_last_size_times_the_margin(self) -> None:
        self.assertEqual(needed_bytes(1000, 1.25), 1250)
        self.assertEqual(needed_bytes(1001, 1.25), 1252)       # 1251.25 rounded up
        self.assertIsNone(needed_bytes(None, 1.25))
        self.assertEqual(needed_bytes(1000, 0.5), 1000)        # never less than the size itself

    def test_refused_below_what_is_needed_and_allowed_at_it(self) -> None:
        with mock.patch.object(checkpoint_guard, "disk_space", return_value=(1249, 10_000)):
            with self.assertRaises(NoSpaceError) as e:
                check_space("/ckpt", 1000, 1.25)
        self.assertEqual((e.exception.free_bytes, e.exception.needed_bytes), (1249, 1250))
        self.assertEqual(e.exception.errno, errno.ENOSPC)
        self.assertIn("1249 bytes free, 1250 needed", str(e.exception))
        with mock.patch.object(checkpoint_guard, "disk_space", return_value=(1250, 10_000)):
            check_space("/ckpt", 1000, 1.25)
        with mock.patch.object(checkpoint_guard, "disk_space", return_value=(0, 10_000)):
            check_space("/ckpt", None, 1.25)                   # no size known: goes ahead

    def test_no_space_is_found_in_torchs_wrapping_of_the_write_error(self) -> None:
        try:
            try:
                raise OSError(errno.ENOSPC, "No space left on device")
            except OSError as inner:
                raise RuntimeError("PytorchStreamWriter failed writing file data/0") from inner
        except RuntimeError as e:
            self.assertTrue(is_no_space(e))
        self.assertTrue(is_no_space(RuntimeError("[Errno 28] No space left on device")))
        self.assertFalse(is_no_space(OSError(errno.EACCES, "Permission denied")))


@needs_torch
class ManagerGuardAndTrustTest(unittest.TestCase):
    def setUp(self) -> None:
        self.lifeline = FakeLifeline()
        self.dir = tempfile.mkdtemp()
        self.agent = Agent(Config.from_env(base_env(self.lifeline.url, LIFELINE_EXCEPTION_HOOK="0")),
                           install_signals=False)

    def tearDown(self) -> None:
        self.agent.close(1)
        self.lifeline.close()
        shutil.rmtree(self.dir, ignore_errors=True)

    def model(self) -> Any:
        torch.manual_seed(0)
        return torch.nn.Linear(16, 16)

    def test_a_save_that_would_not_fit_is_refused_before_writing_and_reported(self) -> None:
        m = self.model()
        ck = CheckpointManager(self.dir, agent=self.agent, verify="sync")
        first = ck.save(1, model=m)
        size = first.bytes
        assert size is not None
        with mock.patch("lifeline_agent.checkpoint_guard.disk_space", return_value=(size, 10 * size)):
            with self.assertRaises(NoSpaceError) as e:
                ck.save(2, model=m)
        self.assertEqual(e.exception.needed_bytes, math.ceil(size * 1.25))
        self.assertEqual(sorted(os.listdir(self.dir)), [first.checkpoint_id])     # no temporary, no partial
        self.assertEqual(ck.verify(first.checkpoint_id, emit=False)[0], True)
        self.agent.flush(3)
        failed = self.lifeline.events("trainer.checkpoint.failed")[0]["data"]
        self.assertEqual(failed["reason"], "no_space")
        self.assertEqual((failed["freeBytes"], failed["neededBytes"]), (size, math.ceil(size * 1.25)))
        started = [e["data"]["step"] for e in self.lifeline.events("trainer.checkpoint.started")]
        self.assertEqual(started, [1], "a refused save never started")

    def test_a_disk_that_fills_during_the_write_leaves_the_previous_checkpoint(self) -> None:
        m = self.model()
        ck = CheckpointManager(self.dir, agent=self.agent, verify="sync")
        first = ck.save(1, model=m)
        real_open = open

        def full(path: Any, mode: str = "r", *a: Any, **k: Any) -> Any:
            if "w" in mode and os.path.basename(str(path)) == "state.pt":
                raise OSError(errno.ENOSPC, "No space left on device")
            return real_open(path, mode, *a, **k)

        with mock.patch("builtins.open", full):
            with self.assertRaises(NoSpaceError) as e:
                ck.save(2, model=m)
        self.assertTrue(e.exception.during_write)
        self.assertEqual(sorted(os.listdir(self.dir)), [first.checkpoint_id])
        self.agent.flush(3)
        self.assertEqual(self.lifeline.events("trainer.checkpoint.failed")[0]["data"]["reason"], "no_space")

    def test_a_save_after_a_nan_is_suspect_and_restore_takes_the_newest_trusted(self) -> None:
        m = self.model()
        ck = CheckpointManager(self.dir, agent=self.agent, verify="sync", keep=1)
        self.agent.step(10, loss=0.5)
        good = ck.save(10, model=m)
        self.agent.step(20, loss=math.nan)
        bad = ck.save(20, model=m)
        with open(os.path.join(bad.path or "", "manifest.json")) as f:
            manifest = json.load(f)
        self.assertEqual((manifest["loss"], manifest["trusted"], manifest["suspectReason"]),
                         ("nan", False, "non_finite_loss"))
        # keep=1, yet the newest trusted one stays.
        self.assertEqual(sorted(os.listdir(self.dir)), sorted([good.checkpoint_id, bad.checkpoint_id]))
        fresh = self.model()
        r = ck.restore(model=fresh)
        assert r is not None
        self.assertEqual(r.checkpoint_id, good.checkpoint_id)
        r2 = ck.restore(model=fresh, allow_suspect=True)
        assert r2 is not None
        self.assertEqual(r2.checkpoint_id, bad.checkpoint_id)
        r3 = ck.restore(model=fresh, checkpoint_id=bad.checkpoint_id)
        assert r3 is not None
        self.assertEqual(r3.checkpoint_id, bad.checkpoint_id)
        self.agent.flush(3)
        losses = [e["data"].get("loss") for e in self.lifeline.events("trainer.checkpoint.started")]
        self.assertEqual(losses, [0.5, "nan"])

    def test_a_save_after_a_spike_is_suspect(self) -> None:
        a = NoopAgent(Config.from_env({"LIFELINE_PROGRESS_INTERVAL": "0.1"}), warn=False)
        for v in (1.0, 1.2, 0.9, 1.1, 1.0):
            a.losses.add(v)
        ck = CheckpointManager(self.dir, agent=a, verify="off")
        a.step(5, loss=50.0)
        info = ck.save(5, model=self.model())
        with open(os.path.join(info.path or "", "manifest.json")) as f:
            self.assertEqual(json.load(f)["suspectReason"], "loss_spike")
        self.assertIsNone(ck.latest())
        self.assertIsNotNone(ck.latest(allow_suspect=True))


_SCRIPT = """
import json, math, os, sys, time
import torch
import torch.distributed as dist
import lifeline_agent
from lifeline_agent.checkpoint import CheckpointManager, NoSpaceError

mode = sys.argv[1]
ckpt_dir = os.environ["CKPT_DIR"]
dist.init_process_group("gloo")
agent = lifeline_agent.init()
torch.manual_seed(0)
model = torch.nn.Linear(256, 256)
opt = torch.optim.SGD(model.parameters(), lr=0.001, momentum=0.9)
out = {}

def train(step, poison=False):
    x = torch.randn(8, 256)
    loss = ((model(x) - x) ** 2).mean()
    opt.zero_grad(); loss.backward(); opt.step()
    if poison:
        with torch.no_grad():
            model.weight.fill_(float("nan"))
    return float(((model(x) - x) ** 2).mean().item())

if mode == "fill":
    ck = CheckpointManager(ckpt_dir, agent=agent, verify="sync", durable=True)
    agent.step(1, loss=train(1))
    first = ck.save(1, model=model, optimizer=opt)
    st = os.statvfs(ckpt_dir)
    free = st.f_bavail * st.f_frsize
    leave = int(first.bytes * 0.9)                 # less than the checkpoint, let alone its margin
    with open(os.path.join(ckpt_dir, "filler"), "wb") as f:
        f.write(b"x" * max(0, free - leave))
    agent.step(2, loss=train(2))
    try:
        ck.save(2, model=model, optimizer=opt)
        out["second"] = "saved"
    except NoSpaceError as e:
        out["second"] = "refused"
        out["free"], out["needed"], out["during"] = e.free_bytes, e.needed_bytes, e.during_write
    # A directory with no checkpoint yet: the size is unknown, the write starts and the disk fills during it.
    ck2 = CheckpointManager(os.path.join(ckpt_dir, "other"), agent=agent, verify="off", durable=True)
    try:
        ck2.save(2, model=model, optimizer=opt)
        out["third"] = "saved"
    except NoSpaceError as e:
        out["third"] = "refused"
        out["third_during"] = e.during_write
    out["first"] = first.checkpoint_id
    out["files"] = sorted(os.listdir(ckpt_dir))
    out["other_files"] = sorted(os.listdir(os.path.join(ckpt_dir, "other")))
    out["first_ok"] = ck.verify(first.checkpoint_id, emit=False)[0]
else:
    ck = CheckpointManager(ckpt_dir, agent=agent, verify="sync", keep=2, durable=True)
    r = ck.restore(model=model, optimizer=opt)
    start = r.step if r else 0
    out["restored"] = r.checkpoint_id if r else None
    out["restored_step"] = start
    out["weights_finite"] = bool(torch.isfinite(model.weight).all().item())
    nan_at = int(os.environ.get("NAN_AT", "0"))
    saved = []
    for step in range(start + 1, int(os.environ["STEPS"]) + 1):
        loss = train(step, poison=(step == nan_at))
        agent.step(step, loss=loss)
        time.sleep(0.02)
        if step % 10 == 0:
            saved.append(ck.save(step, model=model, optimizer=opt).checkpoint_id)
    out["saved"] = saved
    out["last_loss"] = str(loss) if start < int(os.environ["STEPS"]) else None
agent.close(5)
dist.destroy_process_group()
print("RESULT " + json.dumps(out), flush=True)
"""


@needs_torch
class TorchrunTest(unittest.TestCase):
    """Real torchrun (through the wrapper) with the agent and the checkpoint helpers."""

    def setUp(self) -> None:
        self.lifeline = FakeLifeline()
        self.scratch = tempfile.mkdtemp(prefix="lifeline-trust-")
        self.script = os.path.join(self.scratch, "train_trust.py")
        with open(self.script, "w") as f:
            f.write(textwrap.dedent(_SCRIPT))

    def tearDown(self) -> None:
        self.lifeline.close()
        shutil.rmtree(self.scratch, ignore_errors=True)

    def torchrun(self, mode: str, ckpt_dir: str, **env_extra: Any) -> Any:
        env = dict(os.environ)
        env.update(base_env(self.lifeline.url, LIFELINE_EXCEPTION_HOOK="0", CKPT_DIR=ckpt_dir, OMP_NUM_THREADS=1,
                            LIFELINE_PROGRESS_INTERVAL="0.05", **env_extra))
        env["PYTHONPATH"] = PKG + os.pathsep + env.get("PYTHONPATH", "")
        p = subprocess.run([sys.executable, "-m", "lifeline_agent.run", "--nnodes=1:1", "--nproc-per-node=1",
                            "--rdzv-backend=c10d", "--rdzv-endpoint=127.0.0.1:%d" % free_port(),
                            "--rdzv-id=trust1", "--max-restarts=0", self.script, mode],
                           env=env, capture_output=True, text=True, timeout=180)
        self.assertEqual(p.returncode, 0, p.stderr[-3000:])
        return json.loads([line for line in p.stdout.splitlines() if line.startswith("RESULT ")][-1][7:])

    def test_a_save_into_a_small_file_system_that_fills_is_refused_before_writing(self) -> None:
        mnt = os.path.join(self.scratch, "small")
        os.makedirs(mnt)
        if os.geteuid() != 0:
            self.fail("this test mounts a 4 MiB tmpfs and must run as root (it does on CI)")
        r = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", mnt], capture_output=True, text=True)
        if r.returncode != 0:
            self.fail("mount -t tmpfs failed (%s): the test needs a machine where root may mount" % r.stderr.strip())
        try:
            out = self.torchrun("fill", mnt)
        finally:
            subprocess.run(["umount", mnt], capture_output=True)
        self.assertEqual(out["second"], "refused")
        self.assertFalse(out["during"], "refused before writing, not by the disk filling")
        self.assertLess(out["free"], out["needed"])
        self.assertEqual(out["files"], sorted([out["first"], "filler", "other"]), "no partial or temporary file")
        self.assertTrue(out["first_ok"], "the previous checkpoint is intact")
        self.assertEqual(out["third"], "refused")
        self.assertTrue(out["third_during"])
        self.assertEqual(out["other_files"], [], "the write that filled the disk left nothing behind")
        failed = [e["data"] for e in self.lifeline.events("trainer.checkpoint.failed")]
        self.assertEqual([f["reason"] for f in failed], ["no_space", "no_space"])
        self.assertEqual((failed[0]["freeBytes"], failed[0]["neededBytes"]), (out["free"], out["needed"]))
        self.assertEqual(failed[0]["capacityBytes"], 4 * 1024 * 1024)       # the tmpfs's size

    def test_a_run_whose_loss_goes_to_nan_restores_from_the_checkpoint_before_it(self) -> None:
        d = os.path.join(self.scratch, "ckpt")
        first = self.torchrun("train", d, STEPS="50", NAN_AT="35")
        self.assertEqual(first["restored"], None)
        self.assertEqual(first["last_loss"], "nan")
        self.assertEqual(len(first["saved"]), 5)
        with open(os.path.join(d, first["saved"][2], "manifest.json")) as f:
            self.assertTrue(json.load(f)["trusted"])                     # step 30
        with open(os.path.join(d, first["saved"][3], "manifest.json")) as f:
            m40 = json.load(f)
        self.assertEqual((m40["trusted"], m40["suspectReason"], m40["loss"]), (False, "non_finite_loss", "nan"))
        progress = [e["data"] for e in self.lifeline.events("trainer.progress")]
        self.assertIn("nan", [p.get("loss") for p in progress])
        again = self.torchrun("train", d, STEPS="30")
        self.assertEqual(again["restored"], first["saved"][2])
        self.assertEqual(again["restored_step"], 30)
        self.assertTrue(again["weights_finite"])
        restored = self.lifeline.events("trainer.restored")
        self.assertEqual(restored[-1]["data"]["checkpointId"], first["saved"][2])


if __name__ == "__main__":
    unittest.main()
