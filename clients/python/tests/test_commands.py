"""Commands: dedupe of redelivered ids, acknowledgements in order, ids with '/' and ':', what rank 0 answers."""

from __future__ import annotations

import time
import unittest
from typing import Any

from _fakes import FakeLifeline, base_env

from lifeline_agent.agent import Agent, Task
from lifeline_agent.commands import Command, CommandChannel
from lifeline_agent.config import Config
from lifeline_agent.transport import Http

CID = "act-3f2a9c0e1b7d4a6c8e21:checkpoint:ml/test"


class ChannelTest(unittest.TestCase):
    def setUp(self) -> None:
        self.lifeline = FakeLifeline()
        self.http = Http(self.lifeline.url, lambda: "llt_test_token", timeout=2)
        self.seen: list[Command] = []

    def tearDown(self) -> None:
        self.lifeline.close()

    def channel(self) -> CommandChannel:
        def handler(cmd: Command) -> None:
            self.seen.append(cmd)
            ch.ack(cmd.id, "accepted")
        ch = CommandChannel(self.http, "ml", "test", handler, wait=1)
        return ch

    def test_a_redelivered_command_is_acted_on_once_and_its_ack_repeated(self) -> None:
        self.lifeline.remove_on_ack = False     # as if the acknowledgements were lost
        self.lifeline.redeliver_after = 0.0
        ch = self.channel()
        self.lifeline.add_command(CID, "checkpoint_now", deadline="2026-03-01T10:05:00Z", reason="try")
        self.assertTrue(ch.poll_once())
        ch.flush(5)
        self.assertTrue(ch.poll_once())     # delivered again: the acknowledgement did not count
        self.assertTrue(ch.poll_once())
        ch.flush(5)
        self.assertEqual(len(self.seen), 1)
        self.assertEqual(self.seen[0].kind, "checkpoint_now")
        deadline = self.seen[0].deadline
        assert deadline is not None
        self.assertEqual(deadline.isoformat(), "2026-03-01T10:05:00+00:00")
        self.assertEqual(ch.stats()["redelivered"], 2)
        self.assertEqual([a[1] for a in self.lifeline.acks], ["accepted"] * 3)

    def test_every_poll_and_acknowledgement_carries_the_agents_key_and_exit_releases_the_claim(self) -> None:
        key = "k" * 43
        ch = CommandChannel(self.http, "ml", "test", lambda c: ch.ack(c.id, "accepted"), wait=0, key=key)
        self.lifeline.add_command(CID, "checkpoint_now")
        self.assertTrue(ch.poll_once())
        ch.flush(5)
        self.assertTrue(ch.release())
        calls = [r for r in self.lifeline.requests if r.path.startswith("/api/v1/agents/")]
        self.assertEqual([r.method for r in calls], ["GET", "POST", "DELETE"])
        self.assertEqual({r.headers.get("Lifeline-Agent-Key") for r in calls}, {key})
        self.assertEqual(self.lifeline.acks, [(CID, "accepted", None)])
        self.assertEqual(self.lifeline.claims, {})
        self.assertFalse(ch.release(), "released once")

    def test_a_poll_refused_for_another_agents_claim_waits_its_retry_after_and_acts_on_nothing(self) -> None:
        self.lifeline.claims["ml/test"] = "another-agents-key-" + "x" * 30
        self.lifeline.add_command(CID, "checkpoint_now")
        ch = self.channel()
        ch.wait = 0
        self.assertFalse(ch.poll_once())
        self.assertEqual(ch.stats()["claim_refused"], 1)
        self.assertEqual(self.seen, [])
        self.assertGreaterEqual(ch._retry_delay(0), 1.0)
        self.assertFalse(ch.release(), "it never held the claim")

    def test_dedupe_memory_is_bounded(self) -> None:
        ch = CommandChannel(self.http, "ml", "test", lambda c: None, remember=10)
        for i in range(100):
            ch.dispatch(Command("c-%d" % i, "lifeline.command.checkpoint_now", {}))
        self.assertEqual(len(ch._seen), 10)
        self.assertFalse(ch.dispatch(Command("c-99", "lifeline.command.checkpoint_now", {})))
        self.assertTrue(ch.dispatch(Command("c-0", "lifeline.command.checkpoint_now", {})))

    def test_ack_path_keeps_slashes_and_colons_of_the_id(self) -> None:
        ch = self.channel()
        self.assertEqual(ch.ack_path(CID),
                         "/api/v1/agents/ml/test/commands/act-3f2a9c0e1b7d4a6c8e21:checkpoint:ml/test/ack")
        ch.wait = 0
        self.assertTrue(ch.poll_once())     # claims the job's commands: only the claim's key may acknowledge
        ch.ack(CID, "accepted")
        ch.ack(CID, "done", "checkpoint step-5 saved")
        ch.flush(5)
        self.assertEqual(self.lifeline.acks, [(CID, "accepted", None), (CID, "done", "checkpoint step-5 saved")])

    def test_acks_are_retried_through_an_outage_and_stay_in_order(self) -> None:
        ch = CommandChannel(Http("http://127.0.0.1:9", lambda: "x", timeout=0.2), "ml", "test", lambda c: None)
        sleeps: list[float] = []
        ch._sleep = sleeps.append
        self.assertFalse(ch._send_ack("c-1", "done", None, attempts=3))
        self.assertEqual(len(sleeps), 3)


class AgentCommandsTest(unittest.TestCase):
    """Rank 0 of a one-rank job against the fake: every kind, and the accepted -> done sequence."""

    def setUp(self) -> None:
        self.lifeline = FakeLifeline()
        env = base_env(self.lifeline.url)
        self.agent = Agent(Config.from_env(env), install_signals=False)
        self.agent.config.exception_hook = False

    def tearDown(self) -> None:
        self.agent.close(1)
        import sys
        sys.excepthook = sys.__excepthook__
        self.lifeline.close()

    def acks(self, cid: str, n: int) -> Any:
        return self.lifeline.wait_for(lambda: [a for a in self.lifeline.acks if a[0] == cid][:n]
                                      if len([a for a in self.lifeline.acks if a[0] == cid]) >= n else None)

    def test_checkpoint_now_is_accepted_then_done_after_the_save(self) -> None:
        self.lifeline.add_command(CID, "checkpoint_now", deadline="2099-03-01T10:05:00Z", reason="try")
        self.assertEqual(self.acks(CID, 1)[0][1], "accepted")
        self.assertIsNotNone(self.agent.checkpoint_requested())
        task = self.next_task()
        self.assertEqual((task.kind, task.reason, task.hold), ("save", "command", False))
        self.agent.complete(task, ok=True, checkpoint_id="step-%d" % task.step)
        acks = self.acks(CID, 2)
        self.assertEqual([a[1] for a in acks], ["accepted", "done"])
        self.assertIn("step-%d" % task.step, acks[1][2])
        self.assertIsNone(self.agent.checkpoint_requested())

    def next_task(self) -> Task:
        for step in range(1, 50):
            task = self.agent.step(step)
            if task:
                return task
            time.sleep(0.01)
        self.fail("no task within 49 steps")

    def first_task(self, *steps: int) -> Task:
        """The task of the first of ``steps`` that has one (the test fails when none has)."""
        for step in steps:
            task = self.agent.step(step)
            if task:
                return task
        self.fail("no task at steps %s" % (steps,))

    def test_a_drain_asking_for_durable_storage_still_gets_a_save_and_a_hold_where_saves_stay_on_the_node(self) -> None:
        # Never "no save and no hold": the job is about to stop, and a save and a hold beat neither.
        self.lifeline.add_command("c-durable", "prepare_exit", deadline="2099-03-01T10:05:00Z", reason="drain node-a",
                                  node="node-a", storage="durable")
        acks = self.acks("c-durable", 1)
        self.assertEqual(acks[0][1], "accepted")
        self.assertIn("then holding", acks[0][2])
        self.assertIn("no durable checkpoint storage", acks[0][2])
        task = self.next_task()
        self.assertEqual((task.kind, task.reason, task.hold, task.storage), ("save", "prepare_exit", True, "durable"))
        self.assertEqual(self.agent.task_storage(), "durable")

    def test_a_checkpoint_now_asking_for_durable_storage_is_refused_by_a_one_node_trainer_that_saves_locally(self) -> None:
        self.lifeline.add_command("c-durable", "checkpoint_now", deadline="2099-03-01T10:05:00Z", storage="durable")
        acks = self.acks("c-durable", 1)
        self.assertEqual(acks[0][1], "rejected")
        self.assertIn("no durable checkpoint storage", acks[0][2])
        self.assertIn("durable=True", acks[0][2])
        self.assertIsNone(self.agent.step(1))      # nothing was planned: no save in vain

    def test_node_local_saves_of_a_job_on_several_nodes_answer_a_request_for_durable_storage(self) -> None:
        # Every node keeps its own copy: the loss of one leaves the others'.
        from lifeline_agent.checkpoint import CheckpointManager
        import shutil
        import tempfile
        d = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, d, True)
        ck = CheckpointManager(d, agent=self.agent, world_size=2, durable=False)
        self.assertEqual(ck.nodes(), 2)
        self.assertEqual(ck.survives_a_node(), (True, None))
        self.lifeline.add_command("c-durable", "checkpoint_now", deadline="2099-03-01T10:05:00Z", storage="durable")
        self.assertEqual(self.acks("c-durable", 1)[0][1], "accepted")
        task = self.next_task()
        self.assertEqual(task.storage, "durable")

    def test_a_durable_checkpoint_is_saved_by_a_trainer_whose_saves_outlive_the_node(self) -> None:
        self.agent.config.checkpoints_durable = True
        self.lifeline.add_command("c-durable", "checkpoint_now", deadline="2099-03-01T10:05:00Z", storage="durable")
        self.assertEqual(self.acks("c-durable", 1)[0][1], "accepted")
        task = self.next_task()
        self.assertEqual((task.kind, task.reason), ("save", "command"))
        self.agent.complete(task, ok=True, checkpoint_id="step-%d" % task.step)
        self.assertEqual([a[1] for a in self.acks("c-durable", 2)], ["accepted", "done"])

    def test_a_failed_save_acks_failed(self) -> None:
        self.lifeline.add_command("c-fail", "checkpoint_now", deadline="2099-03-01T10:05:00Z")
        self.acks("c-fail", 1)
        task = self.first_task(1, 2)
        with self.assertRaises(OSError):
            self.agent.run(task, save=lambda: (_ for _ in ()).throw(OSError("disk full")))
        acks = self.acks("c-fail", 2)
        self.assertEqual(acks[1][1], "failed")
        self.assertIn("disk full", acks[1][2])

    def test_unknown_kind_and_impossible_restore_are_rejected(self) -> None:
        self.lifeline.add_command("c-x", "reboot_the_cluster")
        self.lifeline.add_command("c-r", "restore_from", checkpointId="step-9", uri="file:///nowhere/")
        self.assertEqual(self.acks("c-x", 1)[0][1], "rejected")
        self.assertIn("unknown command kind", self.acks("c-x", 1)[0][2])
        r = self.acks("c-r", 1)[0]
        self.assertEqual(r[1], "rejected")
        self.assertIn("cannot restore", r[2])

    def test_set_checkpoint_interval(self) -> None:
        self.assertIsNone(self.agent.checkpoint_interval())
        self.lifeline.add_command("c-i", "set_checkpoint_interval", intervalSeconds="900")
        self.assertEqual([a[1] for a in self.acks("c-i", 2)], ["accepted", "done"])
        self.assertEqual(self.agent.checkpoint_interval(), 900.0)
        self.lifeline.add_command("c-bad", "set_checkpoint_interval", intervalSeconds="soon")
        self.assertEqual(self.acks("c-bad", 1)[0][1], "rejected")

    def test_prepare_exit_saves_then_holds_until_the_deadline_and_grace(self) -> None:
        self.agent.config.hold_grace = 0.3
        deadline = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(time.time() + 1.5)) + "Z"
        holds: list[int] = []
        self.agent.on("hold", holds.append)
        self.lifeline.add_command("c-exit", "prepare_exit", deadline=deadline, reason="drain node-a", node="node-a")
        self.acks("c-exit", 1)
        self.assertTrue(self.agent.should_exit())
        task = self.first_task(1, 2)
        self.assertEqual((task.reason, task.hold), ("prepare_exit", True))
        t0 = time.monotonic()
        self.agent.complete(task, ok=True, checkpoint_id="step-x")
        held = time.monotonic() - t0
        self.assertEqual(holds, [task.step])
        self.assertGreater(held, 0.5)
        self.assertLess(held, 5)
        self.assertFalse(self.agent.should_exit())
        self.assertEqual([a[1] for a in self.acks("c-exit", 2)], ["accepted", "done"])

    def test_rescale_notice_saves_a_fresh_checkpoint(self) -> None:
        self.lifeline.add_command("c-rs", "rescale_notice", worldSize="16", workers="2")
        self.assertEqual(self.acks("c-rs", 1)[0][1], "accepted")
        task = self.first_task(1, 2)
        self.assertEqual((task.kind, task.reason), ("save", "command"))
        self.assertEqual(self.agent.rescale_notice(), {"worldSize": "16", "workers": "2"})
        self.agent.complete(task, ok=True, checkpoint_id="step-2")
        self.assertEqual([a[1] for a in self.acks("c-rs", 2)], ["accepted", "done"])

    def test_checkpoint_now_while_holding_is_rejected(self) -> None:
        self.agent.hold.current = (7, "step-7")
        self.lifeline.add_command("c-h", "checkpoint_now", deadline="2099-03-01T10:05:00Z")
        a = self.acks("c-h", 1)[0]
        self.assertEqual(a[1], "rejected")
        self.assertIn("holding at step 7", a[2])


if __name__ == "__main__":
    unittest.main()
