"""Signals, for real: a child process trains, gets SIGTERM, saves at the next step, reports, flushes and exits."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import textwrap
import time
import unittest

from _fakes import FakeLifeline, base_env

PKG = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")

CHILD = textwrap.dedent("""
    import os, signal, sys, time
    sys.path.insert(0, %(pkg)r)
    mode = sys.argv[1]
    if mode == "chain":
        def previous(signum, frame):
            print("previous handler %%d" %% signum, flush=True)
            os._exit(7)
        signal.signal(signal.SIGTERM, previous)
    import lifeline_agent
    agent = lifeline_agent.init()
    step = 0
    print("ready", flush=True)
    while step < 100000:
        step += 1
        time.sleep(0.01)
        task = agent.step(step)
        if task is None:
            continue
        cid = "step-%%d" %% step
        agent.note_saving(cid, step)
        agent.emit(agent.events.checkpoint_started(cid, step))
        if mode == "slow":
            time.sleep(60)
        agent.emit(agent.events.checkpoint_completed(cid, step, 0.1, 0.1))
        print("saved reason=%%s step=%%d" %% (task.reason, step), flush=True)
        agent.complete(task, ok=True, checkpoint_id=cid)
        print("after complete", flush=True)
""") % {"pkg": PKG}


class SignalTest(unittest.TestCase):
    def setUp(self) -> None:
        self.lifeline = FakeLifeline()
        # A directory of its own: the child's directory goes first on its sys.path, and a shared one such as /tmp
        # may hold files named like standard modules (json.py) that would shadow them.
        self.dir = tempfile.mkdtemp(prefix="lifeline-signals-")
        self.script = tempfile.NamedTemporaryFile("w", suffix=".py", delete=False, dir=self.dir)
        self.script.write(CHILD)
        self.script.close()

    def tearDown(self) -> None:
        self.lifeline.close()
        shutil.rmtree(self.dir, ignore_errors=True)

    def start(self, mode: str, **env: object) -> subprocess.Popen[str]:
        e = dict(os.environ)
        e.update(base_env(self.lifeline.url, LIFELINE_SIGNALS="SIGTERM,SIGUSR1", **env))
        p = subprocess.Popen([sys.executable, self.script.name, mode], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, env=e, text=True)
        assert p.stdout is not None
        self.assertEqual(p.stdout.readline().strip(), "ready")
        time.sleep(0.3)
        return p

    def test_sigterm_saves_at_the_next_step_reports_and_dies_of_the_signal(self) -> None:
        p = self.start("normal")
        t0 = time.monotonic()
        p.send_signal(signal.SIGTERM)
        out, err = p.communicate(timeout=30)
        self.assertLess(time.monotonic() - t0, 10)
        self.assertIn("saved reason=signal", out, err)
        self.assertNotIn("after complete", out)
        self.assertEqual(p.returncode, -signal.SIGTERM, err)
        step = int(out.split("saved reason=signal step=")[1].split()[0])
        done = self.lifeline.events("trainer.checkpoint.completed")
        self.assertEqual([e["data"]["step"] for e in done], [step], "the completion was flushed before exit")
        self.assertEqual(self.lifeline.claims, {}, "the claim on the job's commands given up before the signal ended it")

    def test_sigusr1_does_the_same(self) -> None:
        p = self.start("normal")
        p.send_signal(signal.SIGUSR1)
        out, err = p.communicate(timeout=30)
        self.assertIn("saved reason=signal", out, err)
        self.assertEqual(p.returncode, -signal.SIGUSR1)

    def test_a_previous_python_handler_is_called_after_the_checkpoint(self) -> None:
        p = self.start("chain")
        p.send_signal(signal.SIGTERM)
        out, err = p.communicate(timeout=30)
        self.assertIn("saved reason=signal", out, err)
        self.assertIn("previous handler 15", out)
        self.assertEqual(p.returncode, 7)

    def test_a_save_that_cannot_finish_in_the_window_is_reported_failed_never_done(self) -> None:
        p = self.start("slow", LIFELINE_SHUTDOWN_TIMEOUT="3")
        p.send_signal(signal.SIGTERM)
        time.sleep(3.0)             # torchrun's SIGTERM -> SIGKILL window
        p.kill()
        p.communicate(timeout=10)
        failed = self.lifeline.events("trainer.checkpoint.failed")
        self.assertEqual(len(failed), 1, self.lifeline.events())
        self.assertIn("window ran out", failed[0]["data"]["error"])
        self.assertIn("save was still running", failed[0]["data"]["error"])
        self.assertEqual(self.lifeline.events("trainer.checkpoint.completed"), [])


ORPHAN = textwrap.dedent("""
    import os, signal, subprocess, sys, time
    sys.path.insert(0, %(pkg)r)
    if sys.argv[1] == "middle":              # stands for the torchrun agent
        subprocess.Popen([sys.executable, __file__, "child", sys.argv[2]], start_new_session=True)
        time.sleep(60)
    else:                                    # stands for its worker, in a process group of its own
        from lifeline_agent.signals import die_with_parent
        def on_term(signum, frame):
            # Written aside and renamed: the test polls for the marker and must never read it half written.
            with open(sys.argv[2] + ".part", "w") as f:
                f.write("SIGTERM")
            os.replace(sys.argv[2] + ".part", sys.argv[2])
            os._exit(0)
        signal.signal(signal.SIGTERM, on_term)
        print(die_with_parent(), flush=True)
        time.sleep(60)
""") % {"pkg": PKG}


@unittest.skipUnless(sys.platform.startswith("linux"), "PR_SET_PDEATHSIG is Linux's")
class DieWithAgentTest(unittest.TestCase):
    def test_a_worker_gets_sigterm_when_its_agent_is_killed_hard(self) -> None:
        d = tempfile.mkdtemp()
        script, marker = os.path.join(d, "orphan.py"), os.path.join(d, "marker")
        with open(script, "w") as f:
            f.write(ORPHAN)
        # The worker writes to the middle's standard output, which is this pipe: its first line says it is armed.
        middle = subprocess.Popen([sys.executable, script, "middle", marker], stdout=subprocess.PIPE, text=True)
        try:
            assert middle.stdout is not None
            self.assertEqual(middle.stdout.readline().strip(), "True", "die_with_parent armed in the worker")
            middle.kill()                       # SIGKILL: the agent cannot pass anything on
            middle.wait(10)
            deadline = time.time() + 10
            while not os.path.exists(marker) and time.time() < deadline:
                time.sleep(0.05)
            with open(marker) as f:
                self.assertEqual(f.read(), "SIGTERM")
        finally:
            import shutil
            shutil.rmtree(d, ignore_errors=True)


if __name__ == "__main__":
    unittest.main()
