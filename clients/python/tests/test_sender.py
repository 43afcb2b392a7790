"""The event sender: bounded buffer and drop order, batching, backoff, what happens when Lifeline is down."""

from __future__ import annotations

import logging
import time
import unittest
from typing import Any

from _fakes import FakeClock, FakeLifeline, free_port

from lifeline_agent.sender import LIFECYCLE, TELEMETRY, BatchSender, encode_cloudevents
from lifeline_agent.transport import Backoff, Http


def ev(i: int, type_: str = "trainer.checkpoint.completed") -> dict[str, Any]:
    return {"specversion": "1.0", "id": "e-%d" % i, "source": "t", "type": type_, "subject": "ml/test",
            "time": "2026-03-01T10:00:00Z", "data": {"step": i}}


class FixedBackoff(Backoff):
    """No jitter: attempt n waits base * 2^n (capped), never less than Retry-After."""

    def __init__(self, base: float = 0.5, cap: float = 30.0) -> None:
        Backoff.__init__(self, base=base, cap=cap, rng=type("R", (), {"random": staticmethod(lambda: 1.0)})())


def sender_for(url: str, token: str | None = "llt_test_token", **kw: Any) -> BatchSender[dict[str, Any]]:
    http = Http(url, lambda: token, timeout=kw.pop("timeout", 2.0))
    return BatchSender(http, "/api/v1/events", "application/cloudevents-batch+json", encode_cloudevents, "events",
                       **kw)


class BufferTest(unittest.TestCase):
    def test_drops_oldest_telemetry_first_then_oldest_lifecycle(self) -> None:
        s = sender_for("http://127.0.0.1:1", capacity=5)
        s.add(ev(1), LIFECYCLE)
        s.add(ev(2, "trainer.progress"), TELEMETRY)
        s.add(ev(3, "trainer.progress"), TELEMETRY)
        s.add(ev(4), LIFECYCLE)
        s.add(ev(5), LIFECYCLE)
        s.add(ev(6), LIFECYCLE)     # full: progress 2 goes
        s.add(ev(7), LIFECYCLE)     # full: progress 3 goes
        s.add(ev(8), LIFECYCLE)     # no telemetry left: lifecycle 1 goes
        st = s.stats()
        self.assertEqual(st["dropped_telemetry"], 2)
        self.assertEqual(st["dropped_lifecycle"], 1)
        self.assertEqual(st["buffered"], 5)
        self.assertEqual([e["id"] for e in s._take()], ["e-4", "e-5", "e-6", "e-7", "e-8"])

    def test_batches_keep_the_order_of_adding_across_kinds(self) -> None:
        s = sender_for("http://127.0.0.1:1", batch=3)
        for i in range(7):
            s.add(ev(i, "trainer.progress" if i % 2 else "trainer.restored"), TELEMETRY if i % 2 else LIFECYCLE)
        self.assertEqual([e["id"] for e in s._take()], ["e-0", "e-1", "e-2"])
        self.assertEqual([e["id"] for e in s._take()], ["e-3", "e-4", "e-5"])
        self.assertEqual([e["id"] for e in s._take()], ["e-6"])

    def test_add_is_cheap_and_never_touches_the_network(self) -> None:
        s = sender_for("http://10.255.255.1:9", capacity=10000)   # never contacted: no thread is started
        t0 = time.perf_counter()
        for i in range(20000):
            s.add(ev(i, "trainer.progress"), TELEMETRY)
        per_call = (time.perf_counter() - t0) / 20000
        self.assertLess(per_call, 50e-6)
        self.assertEqual(s.stats()["dropped_telemetry"], 10000)


class DeliveryTest(unittest.TestCase):
    def setUp(self) -> None:
        self.lifeline = FakeLifeline()

    def tearDown(self) -> None:
        self.lifeline.close()

    def test_delivers_batches_as_cloudevents_arrays(self) -> None:
        s = sender_for(self.lifeline.url, batch=2)
        for i in range(5):
            s.add(ev(i))
        self.assertTrue(s.flush(5))
        posts = [r for r in self.lifeline.requests if r.path == "/api/v1/events"]
        self.assertEqual([len(r.json()) for r in posts], [2, 2, 1])
        self.assertEqual(posts[0].headers["Content-Type"], "application/cloudevents-batch+json")
        self.assertEqual(posts[0].headers["Authorization"], "Bearer llt_test_token")
        self.assertEqual(s.stats()["accepted"], 5)

    def test_retries_503_with_backoff_and_honours_retry_after(self) -> None:
        self.lifeline.script = [(503, {"Retry-After": "3"}, {"status": 503}), (500, {}, {"status": 500}),
                                (429, {"Retry-After": "1"}, {"status": 429})]
        clock = FakeClock()
        s = sender_for(self.lifeline.url, backoff=FixedBackoff(base=0.5), clock=clock, sleep=clock.sleep)
        s.add(ev(1))
        s.drain()
        # attempt 0: max(0.5, Retry-After 3) = 3; attempt 1: 1.0; attempt 2: max(2.0, 1) = 2.0
        self.assertEqual(clock.sleeps, [3.0, 1.0, 2.0])
        self.assertEqual(len(self.lifeline.events()), 1)
        self.assertEqual(s.stats()["retries"], 3)

    def test_backoff_grows_exponentially_with_jitter_and_a_cap(self) -> None:
        b = Backoff(base=0.5, cap=4.0)
        for attempt, top in [(0, 0.5), (1, 1.0), (2, 2.0), (3, 4.0), (10, 4.0)]:
            for _ in range(50):
                d = b.delay(attempt)
                self.assertGreaterEqual(d, top / 2)
                self.assertLessEqual(d, top)
        self.assertEqual(b.delay(0, retry_after=7.0), 7.0)

    def test_gives_up_on_400_and_logs_the_servers_reasons(self) -> None:
        self.lifeline.script = [(400, {}, {"type": "/problems/invalid-event", "status": 400,
                                           "errors": [{"index": 0, "id": "e-1", "reason": "time: required"}]})]
        s = sender_for(self.lifeline.url)
        s.add(ev(1))
        with self.assertLogs("lifeline_agent", logging.WARNING) as logs:
            self.assertTrue(s.flush(5))
        self.assertIn("time: required", "\n".join(logs.output))
        self.assertEqual(s.stats()["given_up"], 1)
        self.assertEqual(len([r for r in self.lifeline.requests if r.path == "/api/v1/events"]), 1)

    def test_per_event_rejections_are_logged_and_not_resent(self) -> None:
        self.lifeline.reject_ids = {"e-2"}
        s = sender_for(self.lifeline.url)
        for i in range(3):
            s.add(ev(i))
        with self.assertLogs("lifeline_agent", logging.WARNING) as logs:
            self.assertTrue(s.flush(5))
        self.assertIn("[e-2] data.step: required", "\n".join(logs.output))
        self.assertEqual(s.stats()["rejected"], 1)
        self.assertEqual(len([r for r in self.lifeline.requests if r.path == "/api/v1/events"]), 1)

    def test_413_splits_the_batch(self) -> None:
        self.lifeline.script = [(413, {}, {"status": 413})]
        s = sender_for(self.lifeline.url)
        for i in range(4):
            s.add(ev(i))
        self.assertTrue(s.flush(5))
        sizes = [len(r.json()) for r in self.lifeline.requests if r.path == "/api/v1/events"]
        self.assertEqual(sizes, [4, 2, 2])

    def test_rereads_a_rotated_token_file_on_401(self) -> None:
        tokens = ["old", "llt_test_token"]
        http = Http(self.lifeline.url, lambda: tokens.pop(0) if len(tokens) > 1 else tokens[0], timeout=2)
        s = BatchSender(http, "/api/v1/events", "application/cloudevents-batch+json", encode_cloudevents)
        s.add(ev(1))
        self.assertTrue(s.flush(5))
        self.assertEqual(len(self.lifeline.events()), 1)

    def test_reports_drops_once_lifeline_answers_again(self) -> None:
        self.lifeline.script = [(503, {}, {"status": 503})]
        clock = FakeClock()
        s = sender_for(self.lifeline.url, capacity=3, backoff=FixedBackoff(base=0.01), clock=clock,
                       sleep=clock.sleep)
        for i in range(5):
            s.add(ev(i, "trainer.progress"), TELEMETRY)
        with self.assertLogs("lifeline_agent", logging.WARNING) as logs:
            s.drain()
        text = "\n".join(logs.output)
        self.assertIn("dropped 2 telemetry and 0 lifecycle", text)
        self.assertIn("answers again", text)


class LifelineDownTest(unittest.TestCase):
    """A real socket that refuses, a server that answers 503 for a while, one that hangs: training never waits."""

    def test_refused_connection_is_retried_and_flush_is_bounded(self) -> None:
        s = sender_for("http://127.0.0.1:%d" % free_port(), backoff=Backoff(base=0.05, cap=0.2))
        s.start()
        t0 = time.perf_counter()
        for i in range(100):
            s.add(ev(i))
        self.assertLess(time.perf_counter() - t0, 0.05)
        t0 = time.monotonic()
        self.assertFalse(s.flush(0.5))
        self.assertLess(time.monotonic() - t0, 1.5)
        self.assertGreater(s.stats()["retries"], 0)
        self.assertEqual(s.stats()["buffered"] + s.stats()["inflight"], 100)
        s.close()

    def test_events_queued_while_down_arrive_when_lifeline_comes_back(self) -> None:
        port = free_port()
        s = sender_for("http://127.0.0.1:%d" % port, backoff=Backoff(base=0.05, cap=0.1))
        s.start()
        for i in range(10):
            s.add(ev(i))
        time.sleep(0.3)
        lifeline_server = FakeLifeline(port=port)   # Lifeline comes up on that port
        try:
            self.assertTrue(s.flush(5))
            self.assertEqual(sorted(e["id"] for e in lifeline_server.events()), sorted("e-%d" % i for i in range(10)))
        finally:
            s.close()
            lifeline_server.close()

    def test_hanging_server_times_out_and_retries(self) -> None:
        lifeline = FakeLifeline()
        lifeline.hang_seconds = 1.5
        lifeline.script = ["hang"]
        try:
            s = sender_for(lifeline.url, timeout=0.3, backoff=Backoff(base=0.05, cap=0.1))
            s.start()
            t0 = time.perf_counter()
            s.add(ev(1))
            self.assertLess(time.perf_counter() - t0, 0.01)
            self.assertTrue(s.flush(5))
            self.assertGreaterEqual(s.stats()["retries"], 1)
            self.assertEqual([e["id"] for e in lifeline.events()], ["e-1"])
        finally:
            lifeline.close()

    def test_a_long_outage_drops_telemetry_before_lifecycle(self) -> None:
        s = sender_for("http://127.0.0.1:%d" % free_port(), capacity=50, backoff=Backoff(base=0.05, cap=0.1))
        s.start()
        for i in range(40):
            s.add(ev(i), LIFECYCLE)
        for i in range(100):
            s.add(ev(1000 + i, "trainer.progress"), TELEMETRY)
        st = s.stats()
        self.assertEqual(st["dropped_lifecycle"], 0)
        self.assertGreaterEqual(st["dropped_telemetry"], 90)
        s.close()


if __name__ == "__main__":
    unittest.main()
