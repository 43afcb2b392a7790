"""Hang detection, the agent's side: the heartbeat in trainer.step_times, phases, capture_stacks and trainer.stacks,
restart_workers, the faulthandler dump."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
import unittest
from typing import Any

from _fakes import FakeLifeline, MemoryStore, base_env, free_port, optional_torch

from lifeline_agent.agent import Agent, NoopAgent
from lifeline_agent.config import Config
from lifeline_agent.coord import StoreCoordinator
from lifeline_agent.phases import Phases
from lifeline_agent.stacks import MAX_DATA, capture, dump_path, fit


class HangTestBase(unittest.TestCase):
    def setUp(self) -> None:
        self.lifeline = FakeLifeline()
        self.agents: list[Agent] = []
        self.install_signals = False

    def tearDown(self) -> None:
        for a in self.agents:
            a.close(1)
        sys.excepthook = sys.__excepthook__
        self.lifeline.close()

    def make(self, store: MemoryStore | None = None, **extra: object) -> Agent:
        env = base_env(self.lifeline.url, LIFELINE_EXCEPTION_HOOK="0", **extra)
        a = Agent(Config.from_env(env), install_signals=self.install_signals, store=store)
        self.agents.append(a)
        return a

    def beats(self, rank: int = 0) -> list[dict[str, Any]]:
        return [e["data"] for e in self.lifeline.events("trainer.step_times") if e["data"]["rank"] == rank]


class HeartbeatTest(HangTestBase):
    def test_a_rank_without_steps_beats_every_interval_in_startup(self) -> None:
        self.make(LIFELINE_STEP_TIMES_INTERVAL="0.1")
        time.sleep(0.5)
        beats = self.lifeline.wait_for(lambda: len(self.beats()) >= 3 and self.beats())
        self.assertGreaterEqual(len(beats), 3, "the sender ticks with nothing else to send")
        first = beats[0]
        self.assertEqual(first["steps"], 0)
        self.assertEqual(first["toStep"], 0)
        self.assertEqual(first["phase"], "startup")
        for absent in ("medianSeconds", "maxSeconds", "busyMedianSeconds"):
            self.assertNotIn(absent, first)
        self.assertGreater(beats[-1]["sinceStepSeconds"], first["sinceStepSeconds"])
        self.assertAlmostEqual(first["phaseSeconds"], first["sinceStepSeconds"], delta=0.05)
        ids = [e["id"] for e in self.lifeline.events("trainer.step_times")]
        self.assertEqual(len(set(ids)), len(ids), "heartbeats of one step are distinct events")

    def test_a_stalled_rank_keeps_beating_with_a_growing_time_since_its_last_step(self) -> None:
        a = self.make(LIFELINE_STEP_TIMES_INTERVAL="0.1")
        for step in range(1, 21):
            a.step(step)
            time.sleep(0.005)
        time.sleep(0.6)         # the training thread stalls
        beats = self.beats()
        summaries = [b for b in beats if b["steps"] > 0]
        stalled = [b for b in beats if b["steps"] == 0 and b["toStep"] == 20]
        self.assertTrue(summaries)
        self.assertIn("medianSeconds", summaries[0])
        self.assertGreaterEqual(len(stalled), 3)
        self.assertEqual(stalled[-1]["phase"], "training")
        self.assertGreaterEqual(stalled[-1]["sinceStepSeconds"], 0.4)
        self.assertGreater(stalled[-1]["sinceStepSeconds"], stalled[0]["sinceStepSeconds"])
        self.assertGreaterEqual(stalled[-1]["phaseSeconds"], stalled[-1]["sinceStepSeconds"])

    def test_a_declared_phase_and_a_save_show_in_the_heartbeat(self) -> None:
        a = self.make(LIFELINE_STEP_TIMES_INTERVAL="0.05")
        a.step(1)
        a.step(2)

        def newest(phase: str, longer_than: float = 0.0) -> Any:
            return self.lifeline.wait_for(lambda: next(
                (b for b in reversed(self.beats()) if b["phase"] == phase and b["phaseSeconds"] >= longer_than),
                None))
        with a.phase("evaluation"):
            during = newest("evaluation", 0.1)
        self.assertIsNotNone(during, "no heartbeat in the declared phase")
        a.note_saving("c2", 2)
        self.assertIsNotNone(newest("saving"))
        a.note_checkpoint("c2", 2)
        seen = len(self.beats())
        after = self.lifeline.wait_for(lambda: len(self.beats()) > seen + 1 and self.beats()[-1])
        self.assertEqual(after["phase"], "training")
        self.assertLess(after["phaseSeconds"], after["sinceStepSeconds"],
                        "training counts again from the end of the save, not from the first step")


class PhasesTest(unittest.TestCase):
    def test_precedence_nesting_and_times(self) -> None:
        now = [100.0]
        p = Phases(clock=lambda: now[0])
        self.assertEqual(p.current(None, None), ("startup", 100.0))
        now[0] = 101.0
        self.assertEqual(p.current(101.0, 101.0), ("training", 101.0))
        with p.declare("evaluation"):
            now[0] = 102.0
            with p.declare("data"):
                self.assertEqual(p.current(101.0, 101.0), ("data", 102.0))
                now[0] = 103.0
            self.assertEqual(p.current(101.0, 101.0), ("evaluation", 101.0), "the outer phase comes back")
            p.begin("restoring", "r")
            self.assertEqual(p.current(101.0, 101.0)[0], "restoring")
            p.begin("saving", "s")
            self.assertEqual(p.current(101.0, 101.0)[0], "saving")
            p.begin("holding", "h")
            self.assertEqual(p.current(101.0, 101.0), ("holding", 103.0))
            for kind, key in (("holding", "h"), ("saving", "s"), ("restoring", "r")):
                p.end(kind, key)
                p.end(kind, key)        # ended twice (the helpers and the agent both report a save): once
            now[0] = 104.0
        self.assertEqual(p.current(101.0, 103.5), ("training", 104.0))

    def test_invalid_names_are_refused_by_both_agents(self) -> None:
        for bad in ("", "Eval", "1st", "a" * 33, "with space", None):
            with self.assertRaises(ValueError):
                NoopAgent(warn=False).phase(bad)    # type: ignore[arg-type]
            with self.assertRaises(ValueError):
                Phases().declare(bad)               # type: ignore[arg-type]
        with NoopAgent(warn=False).phase("evaluation"):
            pass


class StacksTest(HangTestBase):
    def test_capture_names_threads_marks_the_agents_and_orders_frames_outermost_first(self) -> None:
        stop = threading.Event()

        def blocked_in_here() -> None:
            stop.wait(10)
        t = threading.Thread(target=blocked_in_here, name="worker-x")
        t.start()
        try:
            time.sleep(0.05)
            threads = capture()
        finally:
            stop.set()
            t.join()
        self.assertTrue(threads[0]["main"])
        worker = next(x for x in threads if x["name"] == "worker-x")
        self.assertFalse(worker["main"])
        functions = [f["function"] for f in worker["frames"]]
        self.assertIn("blocked_in_here", [f.split(".")[-1] for f in functions[-3:]], functions)
        self.assertEqual(functions[0], "Thread._bootstrap", "outermost first")
        self.assertTrue(all(set(f) == {"file", "line", "function"} for f in worker["frames"]))

    def test_fit_keeps_the_innermost_frames_within_the_size_lifeline_takes(self) -> None:
        threads = [{"name": "t%d" % i, "main": i == 0,
                    "frames": [{"file": "/x/" + "f" * 200 + ".py", "line": j, "function": "fn%d" % j}
                               for j in range(64)]} for i in range(64)]
        out = fit(threads)
        self.assertLessEqual(len(json.dumps(out, separators=(",", ":"))), MAX_DATA)
        self.assertEqual(out[0]["name"], "t0")
        self.assertEqual(out[0]["frames"][-1]["line"], 63, "the innermost frame is kept")

    def test_names_json_cannot_carry_are_replaced(self) -> None:
        from lifeline_agent.stacks import _clip_file
        self.assertEqual(_clip_file("/data/caf\udce9/train.py"), "/data/caf?/train.py")
        self.assertEqual(len(_clip_file("/x" * 300)), 256)

    def test_capture_stacks_on_one_process_while_its_training_thread_sleeps(self) -> None:
        a = self.make()
        a.step(1)
        a.step(2)
        self.lifeline.add_command("cmd-1", "capture_stacks", requestId="cmd-1")
        time.sleep(0.3)             # the training thread (this one) is blocked; the agent's threads answer
        stacks = self.lifeline.wait_for(lambda: self.lifeline.events("trainer.stacks"))
        self.assertEqual(len(stacks), 1)
        e = stacks[0]
        d = e["data"]
        self.assertEqual((d["requestId"], d["rank"], d["node"], d["pid"], d["step"], d["via"], d["phase"]),
                         ("cmd-1", 0, "node-a", os.getpid(), 2, "frames", "training"))
        self.assertGreaterEqual(d["sinceStepSeconds"], 0.0)
        main = d["threads"][0]
        self.assertTrue(main["main"])
        self.assertIn("test_capture_stacks_on_one_process_while_its_training_thread_sleeps",
                      [f["function"].split(".")[-1] for f in main["frames"]])
        self.assertTrue(any(t.get("agent") for t in d["threads"]))
        self.assertEqual(e["subject"], "ml/test")
        acks = self.lifeline.wait_for(lambda: len(self.lifeline.acks) >= 2 and self.lifeline.acks)
        self.assertEqual([x[1] for x in acks], ["accepted", "done"])

    def test_every_rank_sends_its_stacks_before_the_first_step_through_the_store(self) -> None:
        store = MemoryStore()
        extra: dict[str, object] = dict(WORLD_SIZE="2", MASTER_ADDR="127.0.0.1", MASTER_PORT="29990",
                                      LIFELINE_COORD_POLL="0.01")
        self.make(store, RANK="0", **extra)
        self.make(store, RANK="1", LOCAL_RANK="1", **extra)
        time.sleep(0.2)     # both agents running, no step taken: the generation is not agreed yet
        self.lifeline.add_command("cmd-2", "capture_stacks", requestId="req-2")
        stacks = self.lifeline.wait_for(lambda: len(self.lifeline.events("trainer.stacks")) >= 2
                                        and self.lifeline.events("trainer.stacks"))
        self.assertEqual(sorted(e["data"]["rank"] for e in stacks), [0, 1])
        self.assertEqual({e["data"]["requestId"] for e in stacks}, {"req-2"})
        self.assertEqual({e["data"]["phase"] for e in stacks}, {"startup"})
        self.assertEqual(len({e["id"] for e in stacks}), 2)

    def test_a_restarted_group_does_not_act_on_the_previous_groups_command(self) -> None:
        store = MemoryStore()
        extra: dict[str, object] = dict(WORLD_SIZE="2", MASTER_ADDR="127.0.0.1", MASTER_PORT="29991",
                                      LIFELINE_COORD_POLL="0.01")
        store.add("lifeline/run1/cmd/n", 1)
        store.set("lifeline/run1/cmd/1", json.dumps({"kind": "capture_stacks", "requestId": "old"}))
        self.make(store, RANK="1", **extra)
        time.sleep(0.6)
        self.assertEqual(self.lifeline.events("trainer.stacks"), [])


class RestartTest(HangTestBase):
    def test_every_rank_exits_with_the_code_after_rank_0_acknowledged(self) -> None:
        store = MemoryStore()
        extra: dict[str, object] = dict(WORLD_SIZE="2", MASTER_ADDR="127.0.0.1", MASTER_PORT="29992",
                                      LIFELINE_COORD_POLL="0.01")
        r0 = self.make(store, RANK="0", **extra)
        r1 = self.make(store, RANK="1", **extra)
        exits: dict[int, int] = {}
        acks_at_exit: list[list[Any]] = []

        def exiter(rank: int) -> Any:
            def exit_(code: int) -> None:
                exits[rank] = code
                if rank == 0:
                    acks_at_exit.append([a[1] for a in self.lifeline.acks])
            return exit_
        r0.handler.exit = exiter(0)
        r1.handler.exit = exiter(1)
        self.lifeline.add_command("cmd-3", "restart_workers", reason="hung in all_reduce", exitCode="75")
        self.lifeline.wait_for(lambda: len(exits) == 2, timeout=15)
        self.assertEqual(exits, {0: 75, 1: 75})
        self.assertEqual(acks_at_exit, [["accepted", "done"]], "rank 0 said done before it exited")
        self.assertEqual(self.lifeline.acks[1][2], "workers exit with code 75")

    def test_an_exit_code_torchrun_would_not_restart_is_refused(self) -> None:
        a = self.make()
        a.handler.exit = lambda code: self.fail("exited")
        self.lifeline.add_command("cmd-4", "restart_workers", exitCode="0")
        acks = self.lifeline.wait_for(lambda: self.lifeline.acks)
        self.assertEqual(acks[0][1], "rejected")

    def test_a_real_worker_exits_75_while_its_training_thread_sleeps(self) -> None:
        here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        script = ("import time, lifeline_agent\n"
                  "a = lifeline_agent.init()\n"
                  "a.step(1)\n"
                  "print('READY', flush=True)\n"
                  "time.sleep(60)\n")
        env = dict(os.environ)
        env.update(base_env(self.lifeline.url, LIFELINE_EXCEPTION_HOOK="0", PYTHONPATH=here))
        p = subprocess.Popen([sys.executable, "-c", script], env=env, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
        try:
            assert p.stdout is not None
            self.assertEqual(p.stdout.readline().strip(), "READY")
            self.lifeline.add_command("cmd-5", "restart_workers", reason="test")
            self.assertEqual(p.wait(20), 75)
        finally:
            if p.poll() is None:
                p.kill()
            p.communicate()
        self.assertEqual([a[1] for a in self.lifeline.acks], ["accepted", "done"])


    def test_a_collective_failing_as_the_peers_leave_for_the_restart_still_exits_with_its_code(self) -> None:
        # The peers of a restart leave first, so the training thread's collective fails (gloo: "Connection closed by
        # peer") while this worker's agent is still delivering before its own exit: the failure is the restart's.
        here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        script = ("import time, lifeline_agent\n"
                  "a = lifeline_agent.init()\n"
                  "a.step(1)\n"
                  "print('READY', flush=True)\n"
                  "while a.handler._restart_code is None:\n"
                  "    time.sleep(0.01)\n"
                  "raise RuntimeError('Connection closed by peer')\n")
        env = dict(os.environ)
        env.update(base_env(self.lifeline.url, LIFELINE_EXCEPTION_HOOK="0", PYTHONPATH=here))
        p = subprocess.Popen([sys.executable, "-c", script], env=env, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
        try:
            assert p.stdout is not None
            self.assertEqual(p.stdout.readline().strip(), "READY")
            self.lifeline.add_command("cmd-6", "restart_workers", reason="test")
            self.assertEqual(p.wait(20), 75)
        finally:
            if p.poll() is None:
                p.kill()
            p.communicate()

class FaultDumpTest(HangTestBase):
    def test_sigusr2_dumps_every_threads_stack_to_the_processs_file(self) -> None:
        directory = tempfile.mkdtemp()
        self.install_signals = True
        a = self.make(LIFELINE_STACKS_DIR=directory)
        assert a.fault_dump is not None
        self.assertEqual(a.fault_dump.path, dump_path(directory))
        os.kill(os.getpid(), signal.SIGUSR2)
        time.sleep(0.1)
        with open(dump_path(directory)) as f:
            text = f.read()
        self.assertIn("most recent call first", text)
        self.assertIn("test_sigusr2_dumps_every_threads_stack_to_the_processs_file", text)
        a.close(1)
        self.assertIs(signal.getsignal(signal.SIGUSR2), signal.SIG_DFL)

    def test_an_empty_setting_registers_nothing(self) -> None:
        self.install_signals = True
        a = self.make(LIFELINE_STACKS_SIGNAL="")
        self.assertIsNone(a.fault_dump)


_FROZEN = r"""
import ctypes, faulthandler, json, os, signal, sys, threading
from lifeline_agent.stacks import dump_path, process_start
path = dump_path(sys.argv[1])
f = open(path, "a")
faulthandler.register(signal.SIGUSR2, file=f, all_threads=True)
print(json.dumps({"rank": 1, "localRank": 1, "pid": os.getpid(), "start": process_start(os.getpid()),
                  "main": threading.main_thread().ident, "path": path, "signal": int(signal.SIGUSR2)}), flush=True)
def frozen_in_c():
    ctypes.PyDLL(None).sleep(30)    # a C call that keeps the interpreter's lock: no Python thread runs
frozen_in_c()
"""


@unittest.skipUnless(sys.platform.startswith("linux"), "reads /proc")
class SilentPeerTest(HangTestBase):
    def test_the_local_rank_0_sends_the_faulthandler_dump_of_a_frozen_peer(self) -> None:
        here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        directory = tempfile.mkdtemp()
        env = dict(os.environ, PYTHONPATH=here)
        child = subprocess.Popen([sys.executable, "-c", _FROZEN, directory], env=env, stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, text=True)
        try:
            assert child.stdout is not None
            peer = json.loads(child.stdout.readline())
            store = MemoryStore()
            store.set("lifeline/run1/node/node-a/1", json.dumps(peer))   # what rank 1's agent published
            a = self.make(store, RANK="0", WORLD_SIZE="2", LOCAL_WORLD_SIZE="2", MASTER_ADDR="127.0.0.1",
                          MASTER_PORT="29993", LIFELINE_COORD_POLL="0.01")
            assert isinstance(a.coordinator, StoreCoordinator)
            a.coordinator.peer_wait = 0.3
            self.lifeline.add_command("cmd-20", "capture_stacks", requestId="cmd-20")
            stacks = self.lifeline.wait_for(lambda: len(self.lifeline.events("trainer.stacks")) >= 2
                                            and self.lifeline.events("trainer.stacks"), timeout=15)
            self.assertTrue(stacks)
            by_rank = {e["data"]["rank"]: e["data"] for e in stacks}
            self.assertEqual(by_rank[0]["via"], "frames")
            d = by_rank[1]
            self.assertEqual((d["via"], d["pid"], d["localRank"], d["requestId"]), ("faulthandler", child.pid, 1,
                                                                                    "cmd-20"))
            self.assertIn("most recent call first", d["text"])
            main = next(t for t in d["threads"] if t["main"])
            self.assertEqual([f["function"] for f in main["frames"]][-1], "frozen_in_c", "innermost last")
        finally:
            child.kill()
            child.communicate()

    def test_a_peer_whose_pid_now_names_another_process_is_not_signalled(self) -> None:
        store = MemoryStore()
        gone = {"rank": 1, "localRank": 1, "pid": os.getpid(), "start": "1", "main": 1, "path": "/nonexistent",
                "signal": int(signal.SIGUSR2)}
        store.set("lifeline/run1/node/node-a/1", json.dumps(gone))
        a = self.make(store, RANK="0", WORLD_SIZE="2", LOCAL_WORLD_SIZE="2", MASTER_ADDR="127.0.0.1",
                      MASTER_PORT="29994", LIFELINE_COORD_POLL="0.01")
        assert isinstance(a.coordinator, StoreCoordinator)
        a.coordinator.peer_wait = 0.1
        self.lifeline.add_command("cmd-21", "capture_stacks", requestId="cmd-21")
        self.lifeline.wait_for(lambda: self.lifeline.events("trainer.stacks"))
        time.sleep(0.5)     # this process would have died of SIGUSR2 (no handler here) had it been signalled
        self.assertEqual([e["data"]["rank"] for e in self.lifeline.events("trainer.stacks")], [0])


_TWO_RANKS = r"""
import time
import torch
import torch.distributed as dist
from lifeline_agent.agent import Agent
from lifeline_agent.config import Config

dist.init_process_group("gloo", init_method="env://")
rank = dist.get_rank()
agent = Agent(Config.from_env(), install_signals=False)
t = torch.ones(1)
for step in range(1, 6):
    dist.all_reduce(t)
    agent.step(step)
print("READY", flush=True)
if rank == 1:
    with agent.phase("data"):
        time.sleep(120)         # stuck fetching data
dist.all_reduce(t)              # rank 0 waits here for rank 1
time.sleep(120)
"""


@unittest.skipIf(optional_torch() is None, "torch is not installed")
class TwoProcessesTest(unittest.TestCase):
    """Two real ranks (gloo on CPU, torchrun's store at MASTER_ADDR:MASTER_PORT): rank 1 is stuck in its data phase,
    rank 0 in an all_reduce waiting for it."""

    def setUp(self) -> None:
        self.lifeline = FakeLifeline()

    def tearDown(self) -> None:
        self.lifeline.close()

    def test_a_hung_pair_beats_sends_its_stacks_and_restarts_on_command(self) -> None:
        here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        port = free_port()
        procs: list[subprocess.Popen[str]] = []
        try:
            for rank in (0, 1):
                env = dict(os.environ)
                env.update(base_env(self.lifeline.url, LIFELINE_EXCEPTION_HOOK="0", RANK=rank, LOCAL_RANK=rank,
                                    WORLD_SIZE=2, LOCAL_WORLD_SIZE=2, MASTER_ADDR="127.0.0.1", MASTER_PORT=port,
                                    LIFELINE_STEP_TIMES_INTERVAL="0.2", PYTHONPATH=here, OMP_NUM_THREADS=1))
                procs.append(subprocess.Popen([sys.executable, "-c", _TWO_RANKS], env=env, stdout=subprocess.PIPE,
                                              stderr=subprocess.PIPE, text=True))
            for p in procs:
                assert p.stdout is not None
                self.assertEqual(p.stdout.readline().strip(), "READY")
            time.sleep(1.0)

            def stalled(rank: int) -> Any:
                return [e["data"] for e in self.lifeline.events("trainer.step_times")
                        if e["data"]["rank"] == rank and e["data"]["steps"] == 0 and e["data"]["toStep"] == 5
                        and e["data"]["sinceStepSeconds"] >= 0.5]
            beats = self.lifeline.wait_for(lambda: stalled(0) and stalled(1) and (stalled(0), stalled(1)))
            self.assertTrue(beats, "both ranks beat while stuck")
            self.assertEqual(beats[0][-1]["phase"], "training")
            self.assertEqual(beats[1][-1]["phase"], "data")

            self.lifeline.add_command("cmd-10", "capture_stacks", requestId="cmd-10")
            stacks = self.lifeline.wait_for(lambda: len(self.lifeline.events("trainer.stacks")) >= 2
                                            and self.lifeline.events("trainer.stacks"), timeout=20)
            self.assertTrue(stacks, "no stacks came")
            by_rank = {e["data"]["rank"]: e["data"] for e in stacks}
            self.assertEqual(sorted(by_rank), [0, 1])

            def main_functions(rank: int) -> list[str]:
                main = next(t for t in by_rank[rank]["threads"] if t["main"])
                return [f["function"] for f in main["frames"]]
            self.assertTrue(any("all_reduce" in f for f in main_functions(0)), main_functions(0))
            self.assertEqual(by_rank[1]["phase"], "data")
            self.assertEqual(by_rank[0]["pid"], procs[0].pid)

            self.lifeline.add_command("cmd-11", "restart_workers", reason="hung")
            codes = [p.wait(30) for p in procs]
            self.assertEqual(codes, [75, 75])
            done = [a for a in self.lifeline.acks if a[0] == "cmd-11"]
            self.assertEqual([a[1] for a in done], ["accepted", "done"])
        finally:
            for p in procs:
                if p.poll() is None:
                    p.kill()
                p.communicate()


if __name__ == "__main__":
    unittest.main()
