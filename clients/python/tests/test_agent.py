"""The agent: no-op mode, the hot path, progress, cross-rank agreement through a store, crash reports."""

from __future__ import annotations

import logging
import os
import sys
import threading
import time
import unittest
from typing import Callable

from _fakes import FakeLifeline, MemoryStore, base_env

import lifeline_agent
from lifeline_agent.agent import Agent, NoopAgent
from lifeline_agent.config import Config, valid_job
from lifeline_agent.coord import StoreCoordinator


class NoopTest(unittest.TestCase):
    def setUp(self) -> None:
        NoopAgent._warned = False
        lifeline_agent._agent = None

    def tearDown(self) -> None:
        lifeline_agent._agent = None

    def test_without_lifeline_url_the_agent_is_a_noop_that_warns_exactly_once(self) -> None:
        with self.assertLogs("lifeline_agent", logging.WARNING) as logs:
            a = lifeline_agent.init(Config.from_env({}))
            NoopAgent(Config.from_env({}))
            b = lifeline_agent.get()
        self.assertIs(a, b)
        self.assertEqual(len(logs.output), 1)
        self.assertIn("LIFELINE_URL is not set", logs.output[0])
        self.assertFalse(a.enabled)
        self.assertIsNone(a.step(10, samples=5))
        self.assertIsNone(a.checkpoint_requested())
        self.assertFalse(a.should_exit())
        self.assertIsNone(a.restore_request())
        self.assertIsNone(a.checkpoint_interval())
        self.assertTrue(a.flush(1))
        self.assertEqual(a.stats(), {"enabled": False})
        a.emit({"type": "trainer.progress"})
        a.report_failure("x")
        self.assertEqual(a.incarnation(), 0)

    def test_a_url_without_a_job_is_a_noop_too(self) -> None:
        with self.assertLogs("lifeline_agent", logging.WARNING) as logs:
            a = lifeline_agent.init(Config.from_env({"LIFELINE_URL": "http://127.0.0.1:9"}))
        self.assertIsInstance(a, NoopAgent)
        self.assertIn("LIFELINE_JOB", logs.output[-1])


class ConfigTest(unittest.TestCase):
    def test_reads_lifeline_and_torchrun_variables(self) -> None:
        c = Config.from_env({"LIFELINE_URL": "http://l:8080/", "LIFELINE_JOB": "ml-research/llama3-8b-ft",
                             "NODE_NAME": "ip-10-0-3-17", "RANK": "3", "LOCAL_RANK": "1", "WORLD_SIZE": "8",
                             "GROUP_RANK": "1", "LOCAL_WORLD_SIZE": "2", "TORCHELASTIC_RESTART_COUNT": "2",
                             "TORCHELASTIC_RUN_ID": "llama/7f3a", "TORCHELASTIC_MAX_RESTARTS": "100",
                             "LIFELINE_PROGRESS_INTERVAL": "10", "LIFELINE_SIGNALS": "SIGTERM"})
        self.assertEqual(c.url, "http://l:8080")
        self.assertEqual((c.namespace, c.name, c.node), ("ml-research", "llama3-8b-ft", "ip-10-0-3-17"))
        self.assertEqual((c.rank, c.local_rank, c.world_size, c.group_rank, c.local_world_size),
                         (3, 1, 8, 1, 2))
        self.assertEqual((c.restart_count, c.max_restarts, c.run_id), (2, 100, "llama/7f3a"))
        self.assertEqual(c.event_source, "lifeline-agent/ml-research/llama3-8b-ft")
        self.assertEqual(c.run_key, "llama-7f3a/ip-10-0-3-17/2/%d" % os.getpid())
        self.assertEqual(c.progress_interval, 10.0)
        self.assertEqual(c.signals, ("SIGTERM",))
        self.assertTrue(c.enabled)

    def test_token_file(self) -> None:
        import tempfile
        with tempfile.NamedTemporaryFile("w", delete=False) as f:
            f.write("llt_abc_def\n")
        c = Config.from_env({"LIFELINE_TOKEN_FILE": f.name})
        self.assertEqual(c.read_token(), "llt_abc_def")
        self.assertEqual(Config.from_env({"LIFELINE_TOKEN": "llt_x"}).read_token(), "llt_x")

    def test_the_agent_key_is_the_launchs_else_one_torchruns_restarts_share_else_this_processs(self) -> None:
        given = "g" * 40
        self.assertEqual(Config.from_env({"LIFELINE_AGENT_KEY": given}).agent_key, given)
        err = "/tmp/torchelastic_x/run_abc123/attempt_%d/0/error.json"
        first = Config.from_env({"LIFELINE_TOKEN": "llt_a", "TORCHELASTIC_ERROR_FILE": err % 0}).agent_key or ""
        restarted = Config.from_env({"LIFELINE_TOKEN": "llt_a", "TORCHELASTIC_ERROR_FILE": err % 3}).agent_key
        self.assertEqual(first, restarted, "a worker torchrun restarts keeps the claim")
        self.assertNotEqual(first, Config.from_env({"LIFELINE_TOKEN": "llt_b",
                                                    "TORCHELASTIC_ERROR_FILE": err % 0}).agent_key)
        self.assertNotIn("llt_a", first)
        own = Config.from_env({}).agent_key or ""
        self.assertNotEqual(own, Config.from_env({}).agent_key)
        for k in (given, first, own):
            self.assertRegex(k, r"^[A-Za-z0-9._~+/=-]{32,256}$")
        self.assertNotEqual(Config.from_env({"LIFELINE_AGENT_KEY": "short"}).agent_key, "short")

    def test_job_names(self) -> None:
        self.assertTrue(valid_job("ml/llama3-8b-ft"))
        for bad in ("ml", "ml/a/b", "ML/x", "ml/", "/x", "ml/x_y"):
            self.assertFalse(valid_job(bad), bad)


class AgentTestBase(unittest.TestCase):
    def setUp(self) -> None:
        self.lifeline = FakeLifeline()
        self.agents: list[Agent] = []

    def tearDown(self) -> None:
        for a in self.agents:
            a.close(1)
        sys.excepthook = sys.__excepthook__
        self.lifeline.close()

    def make(self, **extra: object) -> Agent:
        env = base_env(self.lifeline.url, LIFELINE_EXCEPTION_HOOK="0", **extra)
        store = extra.get("_store")
        a = Agent(Config.from_env(env), install_signals=False,
                  store=store if isinstance(store, MemoryStore) else None)
        self.agents.append(a)
        return a


class HotPathTest(AgentTestBase):
    def test_step_is_cheap_and_returns_none_without_work(self) -> None:
        a = self.make()
        t0 = time.perf_counter()
        for i in range(1, 100001):
            self.assertIsNone(a.step(i, samples=32)) if i % 50000 == 0 else a.step(i, samples=32)
        per_call = (time.perf_counter() - t0) / 100000
        self.assertLess(per_call, 20e-6, "step() took %.2f us" % (per_call * 1e6))
        self.assertEqual(a.state.samples, 3200000)

    def test_progress_is_rate_limited_and_carries_throughput(self) -> None:
        a = self.make(LIFELINE_PROGRESS_INTERVAL="0.3")
        t_end = time.time() + 1.0
        step = 0
        while time.time() < t_end:
            step += 1
            a.step(step, samples=64, tokens=64 * 512)
            time.sleep(0.002)
        a.flush(3)
        progress = self.lifeline.events("trainer.progress")
        self.assertGreaterEqual(len(progress), 2)
        self.assertLessEqual(len(progress), 6)
        last = progress[-1]
        self.assertEqual(set(last["data"]), {"step", "samplesPerSecond", "tokensPerSecond"})
        self.assertAlmostEqual(last["data"]["tokensPerSecond"] / last["data"]["samplesPerSecond"], 512, delta=1)
        self.assertEqual(last["source"], "lifeline-agent/ml/test")
        self.assertEqual(last["subject"], "ml/test")
        self.assertTrue(last["id"].startswith("run1/node-a/0/%d/progress/" % os.getpid()))

    def test_the_first_step_of_a_worker_is_reported_at_once(self) -> None:
        # Lifeline ends an interruption at the first progress after a restart: it must not wait for a flush.
        a = self.make(LIFELINE_PROGRESS_INTERVAL="60", LIFELINE_FLUSH_INTERVAL="30")
        time.sleep(0.2)
        t0 = time.monotonic()
        a.step(19, samples=1)
        progress = self.lifeline.wait_for(lambda: self.lifeline.events("trainer.progress"), timeout=5)
        self.assertLess(time.monotonic() - t0, 2.0)
        self.assertEqual(progress[0]["data"]["step"], 19)
        a.step(20, samples=1)
        a.step(21, samples=1)
        time.sleep(0.3)
        self.assertEqual(len(self.lifeline.events("trainer.progress")), 1, "later steps wait for the interval")

    def test_only_rank_0_sends_job_level_events_but_every_rank_reports_its_failure(self) -> None:
        a = self.make(RANK="1", WORLD_SIZE="2", MASTER_ADDR="127.0.0.1", MASTER_PORT="1", _store=MemoryStore())
        self.assertIsNone(a.commands)
        for i in range(1, 20):
            a.step(i, samples=1)
        a.report_failure("RuntimeError: CUDA error", exit_code=1)
        failed = self.lifeline.wait_for(lambda: self.lifeline.events("trainer.worker_failed"))
        self.assertEqual(failed[0]["data"], {"rank": 1, "runId": "run1", "node": "node-a", "exitCode": 1,
                                             "error": "RuntimeError: CUDA error", "step": 19})
        self.assertEqual(self.lifeline.events("trainer.progress"), [])

    def test_interval_from_lifeline_plans_periodic_saves(self) -> None:
        a = self.make(LIFELINE_CHECKPOINT_INTERVAL="0.2")
        self.assertEqual(a.checkpoint_interval(), 0.2)
        tasks = []
        for step in range(1, 200):
            t = a.step(step)
            if t:
                tasks.append(t)
                a.complete(t, checkpoint_id="c%d" % step)
                a.note_checkpoint("c%d" % step, step)
            time.sleep(0.005)
        self.assertGreaterEqual(len(tasks), 2)
        self.assertTrue(all(t.reason == "periodic" and not t.hold for t in tasks))


class StepTimesTest(AgentTestBase):
    def test_every_rank_reports_a_summary_of_its_step_times_per_interval(self) -> None:
        a = self.make(RANK="1", LOCAL_RANK="1", WORLD_SIZE="2", MASTER_ADDR="127.0.0.1", MASTER_PORT="1",
                      LIFELINE_STEP_TIMES_INTERVAL="0.3", _store=MemoryStore())
        t_end = time.time() + 1.2
        step = 0
        while time.time() < t_end:
            step += 1
            a.step(step, busy=0.004 if step % 10 else 0.5)   # one step in ten is slow: the median is not moved
            time.sleep(0.005)
        a.flush(3)
        reports = self.lifeline.events("trainer.step_times")
        self.assertGreaterEqual(len(reports), 2)
        self.assertLessEqual(len(reports), 6, "at most one report per interval")
        reported = sum(r["data"]["steps"] for r in reports)
        # A step recorded while the sender swaps the buffers may be lost (one per report at most), never counted twice.
        self.assertLessEqual(reported, step - 1 - self._unreported(a))
        self.assertGreaterEqual(reported, step - 1 - self._unreported(a) - len(reports))
        last = reports[-1]["data"]
        self.assertEqual((last["rank"], last["localRank"], last["node"]), (1, 1, "node-a"))
        self.assertAlmostEqual(last["busyMedianSeconds"], 0.004, delta=1e-6)
        self.assertGreaterEqual(last["medianSeconds"], 0.005)
        self.assertLess(last["medianSeconds"], 0.1)
        self.assertGreaterEqual(last["maxSeconds"], last["medianSeconds"])
        self.assertLessEqual(last["toStep"], step)
        ids = [r["id"] for r in reports]
        self.assertEqual(len(set(ids)), len(ids))
        self.assertTrue(ids[0].startswith("run1/node-a/0/%d/step_times/1/" % os.getpid()))

    @staticmethod
    def _unreported(a: Agent) -> int:
        return len(a.step_times.durations)

    def test_none_when_turned_off(self) -> None:
        b = self.make(LIFELINE_STEP_TIMES_INTERVAL="0")
        time.sleep(0.3)
        for i in range(1, 50):
            b.step(i, busy=0.01)
        b.step_times.tick(force=True)
        b.flush(2)
        self.assertEqual(self.lifeline.events("trainer.step_times"), [])
        self.assertEqual(len(b.step_times.durations), 0, "nothing recorded when off")


class AgreementTest(AgentTestBase):
    """Two ranks in lockstep (a barrier per step, like DDP's all-reduce) agree through an in-memory store."""

    def run_ranks(self, steps: int, follower_poll: float | None = None, lead: float = 0.05,
                  before: Callable[[], None] | None = None) -> tuple[Agent, Agent, dict[int, list[tuple[int, str, bool]]],
                                                                     MemoryStore]:
        store = MemoryStore()
        extra = dict(WORLD_SIZE="2", MASTER_ADDR="127.0.0.1", MASTER_PORT="29999", LIFELINE_AGREE_LEAD=str(lead),
                     LIFELINE_COORD_POLL="0.01", LIFELINE_AGREE_TIMEOUT="5", _store=store)
        r0 = self.make(RANK="0", **extra)
        r1 = self.make(RANK="1", **extra)
        if follower_poll:
            assert isinstance(r1.coordinator, StoreCoordinator)
            r1.coordinator.poll = follower_poll
        barrier = threading.Barrier(2, timeout=20)
        got: dict[int, list[tuple[int, str, bool]]] = {0: [], 1: []}
        errors: list[Exception] = []

        def loop(agent: Agent, rank: int) -> None:
            try:
                for step in range(1, steps + 1):
                    barrier.wait()
                    time.sleep(0.005)
                    task = agent.step(step)
                    if step == 10 and rank == 0 and before:
                        before()
                    if task:
                        got[rank].append((task.step, task.reason, task.hold))
                        agent.complete(task, ok=True, checkpoint_id="step-%d" % step)
            except Exception as e:  # noqa: BLE001
                errors.append(e)
                barrier.abort()

        threads = [threading.Thread(target=loop, args=(a, r)) for r, a in ((0, r0), (1, r1))]
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
        self.assertEqual(errors, [])
        return r0, r1, got, store

    def test_both_ranks_save_at_the_same_step(self) -> None:
        cid = "act-1:checkpoint:ml/test"

        def command() -> None:
            self.lifeline.add_command(cid, "checkpoint_now", deadline="2099-01-01T00:00:00Z", reason="try")
        r0, r1, got, store = self.run_ranks(200, before=command)
        self.assertEqual(len(got[0]), 1, got)
        self.assertEqual(got[0], got[1])
        step, reason, hold = got[0][0]
        self.assertGreater(step, 10)
        self.assertEqual(reason, "command")
        acks = self.lifeline.wait_for(lambda: len(self.lifeline.acks) >= 2 and self.lifeline.acks)
        self.assertEqual([a[1] for a in acks], ["accepted", "done"])
        self.assertTrue(any(k.startswith("lifeline/run1/s127.0.0.1-29999-w2/plan/0") for k in store.data))

    def test_a_late_rank_makes_everyone_skip_and_rank_0_plans_further_ahead(self) -> None:
        def command() -> None:
            self.lifeline.add_command("act-2:checkpoint:ml/test", "checkpoint_now", deadline="2099-01-01T00:00:00Z")
        # The follower looks only every 0.25 s while rank 0 plans 0.01 s (3 steps) ahead: it is late at first.
        r0, r1, got, store = self.run_ranks(400, follower_poll=0.25, lead=0.01, before=command)
        self.assertEqual(len(got[0]), 1, got)
        self.assertEqual(got[0], got[1])
        late = [k for k in store.data if k.endswith("/late")]
        self.assertTrue(late, "no plan was answered late: the test did not exercise the skip")
        assert isinstance(r0.coordinator, StoreCoordinator)
        self.assertGreater(r0.coordinator._lead_factor, 0)

    def test_signal_on_a_follower_gets_an_agreed_emergency_save(self) -> None:
        store = MemoryStore()
        extra = dict(WORLD_SIZE="2", MASTER_ADDR="127.0.0.1", MASTER_PORT="29998", LIFELINE_AGREE_LEAD="0.05",
                     LIFELINE_COORD_POLL="0.01", LIFELINE_SIGNAL_EXIT="0", _store=store)
        r0 = self.make(RANK="0", **extra)
        r1 = self.make(RANK="1", **extra)
        r0.config.hold_grace = 0.0
        r0.config.shutdown_timeout = 0.2
        r1.config.hold_grace = 0.0
        r1.config.shutdown_timeout = 0.2
        barrier = threading.Barrier(2, timeout=20)
        got: dict[int, list[tuple[int, str]]] = {0: [], 1: []}

        def loop(agent: Agent, rank: int) -> None:
            for step in range(1, 150):
                barrier.wait()
                time.sleep(0.005)
                if rank == 1 and step == 20:
                    agent.emergency.on_signal(15, None)     # what the SIGTERM handler does
                task = agent.step(step)
                if task:
                    got[rank].append((task.step, task.reason))
                    agent.complete(task, ok=True, checkpoint_id="step-%d" % step)
        threads = [threading.Thread(target=loop, args=(a, r)) for r, a in ((0, r0), (1, r1))]
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
        self.assertEqual(len(got[0]), 1, got)
        self.assertEqual(got[0], got[1])
        self.assertEqual(got[0][0][1], "signal")
        self.assertGreater(got[0][0][0], 20)


class IdsTest(AgentTestBase):
    def test_incarnation_is_rank_0s_restart_count(self) -> None:
        store = MemoryStore()
        extra = dict(WORLD_SIZE="2", MASTER_ADDR="127.0.0.1", MASTER_PORT="29997", LIFELINE_COORD_POLL="0.01",
                     _store=store)
        r0 = self.make(RANK="0", TORCHELASTIC_RESTART_COUNT="3", **extra)
        r1 = self.make(RANK="1", TORCHELASTIC_RESTART_COUNT="0", **extra)   # an agent that joined later
        r0.step(1)
        r1.step(1)
        deadline = time.time() + 5
        while r1.incarnation() != 3 and time.time() < deadline:
            time.sleep(0.02)
        self.assertEqual((r0.incarnation(), r1.incarnation()), (3, 3))


class ExceptionHookTest(unittest.TestCase):
    def test_an_uncaught_exception_reports_worker_failed(self) -> None:
        lifeline = FakeLifeline()
        try:
            a = Agent(Config.from_env(base_env(lifeline.url, RANK="2")), install_signals=False)
            a.step(41)
            try:
                raise ValueError("loss is NaN")
            except ValueError as e:
                etype, value, tb = type(e), e, e.__traceback__
            printed: list[type[BaseException]] = []
            a._prev_excepthook = lambda *args: printed.append(args[0])
            sys.excepthook(etype, value, tb)
            failed = lifeline.wait_for(lambda: lifeline.events("trainer.worker_failed"))
            self.assertEqual(failed[0]["data"]["rank"], 2)
            self.assertEqual(failed[0]["data"]["error"], "ValueError: loss is NaN")
            # The step the rank completed last: what tells one error at one step from the same error anywhere.
            self.assertEqual(failed[0]["data"]["step"], 41)
            self.assertEqual(printed, [ValueError])
            a.close(1)
        finally:
            sys.excepthook = sys.__excepthook__
            lifeline.close()


if __name__ == "__main__":
    unittest.main()
