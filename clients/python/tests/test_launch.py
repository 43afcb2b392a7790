"""Launches: a job launched again with the same rdzv id gets new ids; a resend keeps its id."""

from __future__ import annotations

import json
import logging
import os
import re
import time
import unittest

from _fakes import Collect, FakeLifeline, MemoryStore, base_env, parsed

from lifeline_agent import launch
from lifeline_agent.agent import Agent
from lifeline_agent.config import Config
from lifeline_agent.events import EventFactory
from lifeline_agent.run import job_submitted_event
from lifeline_agent.torchelastic import TorchelasticForwarder

STATUS = ('{"name": "torchelastic.worker.status.RENDEZVOUS", "source": "AGENT", "timestamp": 0, "metadata": '
          '{"run_id": "exp1", "global_rank": null, "group_rank": 0, "worker_id": null, "role": "default", '
          '"hostname": "localhost", "state": "RENDEZVOUS", "total_run_time": 0, "rdzv_backend": "c10d", '
          '"raw_error": null, "metadata": "{\\"group_world_size\\": 1}", "agent_restarts": 0}}')
JOINED = ('{"name": "dynamic_rendezvous.py:DynamicRendezvousHandler.next_rendezvous", "run_id": "exp1", "message": '
          '"The node \'localhost_9526_0\' has joined round 0 of the rendezvous \'exp1\' as rank 0 in a world of size '
          '1.", "hostname": "localhost", "pid": 9526, "node_state": "RUNNING", "master_endpoint": "", "rank": 0, '
          '"local_id": 0, "error_trace": ""}')
ERROR_FILE = "/tmp/torchelastic_k2x9/exp1_a81mq0/attempt_%d/%d/error.json"


class LaunchIdTest(unittest.TestCase):
    def test_a_new_launch_id_is_eight_random_hex_digits(self) -> None:
        ids = {launch.new_launch_id() for _ in range(50)}
        self.assertEqual(len(ids), 50)
        self.assertTrue(all(re.match(r"^[0-9a-f]{8}$", i) for i in ids), ids)

    def test_the_launch_is_lifeline_launch_else_torchruns_directory_of_this_agent_else_none(self) -> None:
        self.assertEqual(launch.launch_of({"LIFELINE_LAUNCH": "5f3a9c0b"}), "5f3a9c0b")
        # Every worker of one agent, at every restart, finds the same directory; another agent start makes another.
        one = launch.launch_of({"TORCHELASTIC_ERROR_FILE": ERROR_FILE % (0, 0)})
        self.assertEqual(launch.launch_of({"TORCHELASTIC_ERROR_FILE": ERROR_FILE % (3, 1)}), one)
        other = launch.launch_of({"TORCHELASTIC_ERROR_FILE": ERROR_FILE.replace("a81mq0", "zz01pq") % (0, 0)})
        self.assertRegex(one or "", r"^[0-9a-f]{8}$")
        self.assertNotEqual(one, other)
        self.assertEqual(launch.launch_of({"LIFELINE_LAUNCH": "a/b c",
                                           "TORCHELASTIC_ERROR_FILE": ERROR_FILE % (0, 0)}), one)
        self.assertIsNone(launch.launch_of({"TORCHELASTIC_ERROR_FILE": ""}))
        self.assertIsNone(launch.launch_of({}))

    def test_the_tag_in_checkpoint_names_is_the_launch_or_its_hash(self) -> None:
        self.assertEqual(launch.tag("5f3a9c0b"), "5f3a9c0b")
        self.assertRegex(launch.tag("my-launch.7") or "", r"^[0-9a-f]{8}$")
        self.assertIsNone(launch.tag(None))


class IdsPerLaunchTest(unittest.TestCase):
    """The same run, node, restart count and step in two launches: other ids; the same launch: the same ids."""

    def config(self, launch_id: str | None) -> Config:
        env = base_env("http://127.0.0.1:9", TORCHELASTIC_RESTART_COUNT="0")
        if launch_id:
            env["LIFELINE_LAUNCH"] = launch_id
        return Config.from_env(env)

    def test_run_key_carries_the_launch(self) -> None:
        self.assertEqual(self.config("5f3a9c0b").run_key, "run1/node-a/5f3a9c0b/0/%d" % os.getpid())
        self.assertEqual(self.config(None).run_key, "run1/node-a/0/%d" % os.getpid())

    def test_ids_differ_between_worker_processes_of_one_launch_and_restart_count(self) -> None:
        # torchelastic restarts a node's workers for a peer's failure without counting a restart: the new workers
        # restore the same checkpoint and reach the same steps, and must not read as resends of the ones before.
        f = EventFactory("lifeline-agent/ml/test", "ml/test")
        before, after = self.config("5f3a9c0b"), self.config("5f3a9c0b")
        after.pid = before.pid + 1

        def ids(cfg: Config) -> list[str]:
            return [f.progress(cfg.run_key, 41)["id"], f.restored(cfg.run_key, "step-40-run1-r0", 40)["id"]]

        self.assertTrue(set(ids(before)).isdisjoint(ids(after)), (ids(before), ids(after)))

    def test_progress_restore_and_failure_ids_differ_between_launches_and_not_within_one(self) -> None:
        f = EventFactory("lifeline-agent/ml/test", "ml/test")

        def ids(cfg: Config) -> list[str]:
            return [f.progress(cfg.run_key, 100)["id"], f.worker_failed(cfg.run_key, 0)["id"],
                    f.restored(cfg.run_key, "step-100-run1-r0", 100)["id"]]

        first, again, second = ids(self.config("5f3a9c0b")), ids(self.config("5f3a9c0b")), ids(self.config("0c4d21e7"))
        self.assertEqual(first, again)
        self.assertTrue(set(first).isdisjoint(second), (first, second))

    def test_job_submitted_is_one_per_launch(self) -> None:
        cfg = self.config("5f3a9c0b")
        f = EventFactory(cfg.event_source, cfg.job)

        def submitted(launch_id: str) -> str:
            return str(job_submitted_event(cfg, f, "exp1", 1, 2, 1, 3, 0, env={}, launch=launch_id)["id"])

        self.assertEqual(submitted("5f3a9c0b"), "job.submitted/exp1/5f3a9c0b")
        self.assertEqual(submitted("5f3a9c0b"), submitted("5f3a9c0b"))
        self.assertNotEqual(submitted("5f3a9c0b"), submitted("0c4d21e7"))

    def test_the_forwarder_puts_the_launch_on_every_line(self) -> None:
        f = TorchelasticForwarder(Collect(), node="node-b", launch="5f3a9c0b")
        status, joined = parsed(f.line(STATUS)), parsed(f.line(JOINED))
        self.assertEqual((status["lifeline_launch"], joined["lifeline_launch"]), ("5f3a9c0b", "5f3a9c0b"))
        self.assertEqual(status["metadata"]["hostname"], "node-b")
        self.assertNotIn("lifeline_launch", parsed(TorchelasticForwarder(Collect()).line(JOINED)))


class TimesTest(unittest.TestCase):
    """torchelastic writes timestamp 0 (status) or none (rendezvous): the forwarder gives each line the time
    torchelastic recorded it, so Lifeline orders them by when they happened, not by when they arrived."""

    def test_a_line_without_a_time_gets_the_time_it_was_recorded_and_one_with_a_time_keeps_it(self) -> None:
        f = TorchelasticForwarder(Collect(), launch="5f3a9c0b")
        self.assertEqual(parsed(f.line(STATUS, 1796518683.301))["timestamp"], 1796518683301)
        self.assertEqual(parsed(f.line(JOINED, 1796518683.277))["timestamp"], 1796518683277)
        kept = STATUS.replace('"timestamp": 0', '"timestamp": 1631613000000')
        self.assertEqual(parsed(f.line(kept, 1796518683.3))["timestamp"], 1631613000000)
        self.assertEqual(parsed(f.line(STATUS))["timestamp"], 0)

    def test_emit_stamps_the_records_creation_time(self) -> None:
        sink = Collect()
        record = logging.LogRecord("torchelastic-events-lifeline", logging.INFO, __file__, 1, JOINED, None, None)
        TorchelasticForwarder(sink).emit(record)
        self.assertEqual(json.loads(sink.lines[0])["timestamp"], int(record.created * 1000))


class CheckpointNamesTest(unittest.TestCase):
    """Every rank names a checkpoint by rank 0's launch and restart count, so the names agree across nodes."""

    def setUp(self) -> None:
        self.lifeline = FakeLifeline()
        self.agents: list[Agent] = []

    def tearDown(self) -> None:
        for a in self.agents:
            a.close(1)
        self.lifeline.close()

    def make(self, **extra: object) -> Agent:
        env = base_env(self.lifeline.url, LIFELINE_EXCEPTION_HOOK="0", **extra)
        store = extra.get("_store")
        a = Agent(Config.from_env(env), install_signals=False, store=store if isinstance(store, MemoryStore) else None)
        self.agents.append(a)
        return a

    def test_a_checkpoint_is_named_by_rank_0s_launch_on_every_rank(self) -> None:
        store = MemoryStore()
        extra = dict(WORLD_SIZE="2", MASTER_ADDR="127.0.0.1", MASTER_PORT="29996", LIFELINE_COORD_POLL="0.01",
                     _store=store)
        r0 = self.make(RANK="0", TORCHELASTIC_RESTART_COUNT="1", LIFELINE_LAUNCH="5f3a9c0b", **extra)
        r1 = self.make(RANK="1", TORCHELASTIC_RESTART_COUNT="0", LIFELINE_LAUNCH="0c4d21e7", **extra)
        self.assertEqual(r1.checkpoint_name(40), "step-40-run1-0c4d21e7-r0", "its own until it learns rank 0's")
        r0.step(1)
        r1.step(1)
        deadline = time.time() + 5
        while r1.checkpoint_name(40) != r0.checkpoint_name(40) and time.time() < deadline:
            time.sleep(0.02)
        self.assertEqual((r0.checkpoint_name(40), r1.checkpoint_name(40)),
                         ("step-40-run1-5f3a9c0b-r1", "step-40-run1-5f3a9c0b-r1"))

    def test_without_a_launch_the_names_are_as_before(self) -> None:
        self.assertEqual(self.make(TORCHELASTIC_RESTART_COUNT="2").checkpoint_name(10), "step-10-run1-r2")


if __name__ == "__main__":
    unittest.main()
