"""Forwarding torchelastic's events, and the torchrun wrapper (for real when torch is installed)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import textwrap
import unittest

from _fakes import Collect, FakeLifeline, base_env, free_port, optional_torch, parsed

from lifeline_agent.run import _split, _without_handler_flag
from lifeline_agent.torchelastic import TorchelasticForwarder

torch = optional_torch()  # None in a standard-library-only run, which skips what needs torch

PKG = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")

STATUS = ('{"name": "torchelastic.worker.status.FAILED", "source": "WORKER", "timestamp": 0, "metadata": '
          '{"run_id": "1234", "global_rank": 1, "group_rank": 1, "worker_id": "28454", "role": "default", '
          '"hostname": "ip-172-30-2-79", "state": "FAILED", "total_run_time": 43, "rdzv_backend": "c10d", '
          '"raw_error": "{\\"message\\": \\"<NONE>\\"}", "metadata": "{\\"group_world_size\\": 2}", '
          '"agent_restarts": 3}}')
JOINED = ('{"name": "dynamic_rendezvous.py:DynamicRendezvousHandler.next_rendezvous", "run_id": "exp1", "message": '
          '"The node \'localhost_9526_0\' has joined round 0 of the rendezvous \'exp1\' as rank 1 in a world of size '
          '2.", "hostname": "localhost", "pid": 9526, "node_state": "RUNNING", "master_endpoint": "", "rank": 1, '
          '"local_id": 0, "error_trace": ""}')
KEEPALIVE = ('{"name": "x", "run_id": "exp1", "message": "The node \'localhost_9524_0\' has sent a keep-alive '
             'heartbeat to the rendezvous \'exp1\'.", "hostname": "localhost", "pid": 9524, "node_state": "RUNNING"}')


class ForwarderTest(unittest.TestCase):
    def test_lines_keep_torchelastics_shape_with_the_node_as_hostname(self) -> None:
        f = TorchelasticForwarder(Collect(), node="node-b")
        status = parsed(f.line(STATUS))
        self.assertEqual(status["metadata"]["hostname"], "node-b")
        self.assertEqual(status["metadata"]["global_rank"], 1)
        self.assertEqual(set(status), {"name", "source", "timestamp", "metadata"})
        joined = parsed(f.line(JOINED))
        self.assertEqual(joined["hostname"], "node-b")
        self.assertIn("has joined round 0", joined["message"])
        self.assertIsNone(f.line(KEEPALIVE))
        self.assertIsNone(f.line("not json"))
        self.assertIsNone(f.line('{"some": "thing"}'))

    def test_without_a_node_the_hostname_stays(self) -> None:
        f = TorchelasticForwarder(Collect())
        self.assertEqual(parsed(f.line(JOINED))["hostname"], "localhost")
        self.assertIsNotNone(TorchelasticForwarder(Collect(), forward_all=True).line(KEEPALIVE))


class WrapperArgsTest(unittest.TestCase):
    def test_the_users_event_log_handler_is_replaced_and_script_args_untouched(self) -> None:
        argv = ["--nnodes=1:2", "--event-log-handler", "console", "--nproc-per-node=2", "train.py",
                "--event-log-handler", "x", "--lr", "0.1"]
        opts, script = _split(argv, 4)
        self.assertEqual(script, ["train.py", "--event-log-handler", "x", "--lr", "0.1"])
        self.assertEqual(_without_handler_flag(opts), ["--nnodes=1:2", "--nproc-per-node=2"])
        self.assertEqual(_without_handler_flag(["--event_log_handler=null", "-m"]), ["-m"])


@unittest.skipIf(torch is None, "torch is not installed")
class TorchTest(unittest.TestCase):
    def test_install_receives_status_and_rendezvous_records(self) -> None:
        from torch.distributed.elastic import events
        from torch.distributed.elastic.events import handlers
        from lifeline_agent.torchelastic import install
        saved = dict(handlers._log_handlers)
        try:
            sink = Collect()
            install(sink, node="node-z")
            events.record(events.Event(name="torchelastic.worker.status.START", source=events.EventSource.WORKER,
                                       metadata={"run_id": "r", "hostname": "h", "global_rank": 0}), "lifeline")
            events.construct_and_record_rdzv_event(
                run_id="r", message="The node 'h_1_0' has joined round 2 of the rendezvous 'r' as rank 0 in a "
                                    "world of size 1.", node_state=events.NodeState.RUNNING)
            kinds = [json.loads(l).get("name") for l in sink.lines]
            self.assertEqual(len(sink.lines), 2, sink.lines)
            self.assertEqual(kinds[0], "torchelastic.worker.status.START")
            self.assertEqual(json.loads(sink.lines[1])["hostname"], "node-z")
        finally:
            handlers._log_handlers.clear()
            handlers._log_handlers.update(saved)
            events._events_loggers.clear()

    def test_the_wrapper_runs_torchrun_and_forwards_job_and_rendezvous(self) -> None:
        lifeline = FakeLifeline()
        # In a directory of its own, which goes first on the worker's sys.path (not /tmp, where a json.py would
        # shadow the standard module).
        scratch = tempfile.mkdtemp(prefix="lifeline-wrapper-")
        script = tempfile.NamedTemporaryFile("w", suffix=".py", delete=False, dir=scratch)
        script.write(textwrap.dedent("""
            import os
            print("WORKER", os.environ["LIFELINE_NODE"], os.environ.get("TORCH_DISABLE_SHARE_RDZV_TCP_STORE"),
                  os.environ["LIFELINE_SHUTDOWN_TIMEOUT"], "launch=" + os.environ["LIFELINE_LAUNCH"], flush=True)
        """))
        script.close()
        try:
            env = dict(os.environ)
            # A launch id left in the environment (of an earlier launch) is not this launch's.
            env.update(base_env(lifeline.url, LIFELINE_NODE="node-q", LIFELINE_LAUNCH="stale001"))
            env["PYTHONPATH"] = PKG + os.pathsep + env.get("PYTHONPATH", "")
            port = free_port()
            p = subprocess.run([sys.executable, "-m", "lifeline_agent.run", "--nnodes=1:1", "--nproc-per-node=1",
                                "--rdzv-backend=c10d", "--rdzv-endpoint=127.0.0.1:%d" % port, "--rdzv-id=wrap1",
                                "--max-restarts=2", "--shutdown-timeout=12", script.name],
                               env=env, capture_output=True, text=True, timeout=120)
            self.assertEqual(p.returncode, 0, p.stderr[-3000:])
            self.assertIn("WORKER node-q 1 12 launch=", p.stdout)
            launch = p.stdout.split("launch=", 1)[1].split()[0]
            self.assertRegex(launch, "^[0-9a-f]{8}$")
            self.assertNotEqual(launch, "stale001")
            submitted = lifeline.events("job.submitted")
            self.assertEqual(len(submitted), 1)
            self.assertEqual(submitted[0]["id"], "job.submitted/wrap1/" + launch)
            self.assertEqual(submitted[0]["data"]["elastic"],
                             {"minNodes": 1, "maxNodes": 1, "procsPerNode": 1, "maxRestarts": 2})
            elastic = [r for r in lifeline.requests if r.path == "/api/v1/connectors/torchelastic"]
            self.assertTrue(elastic)
            self.assertIn("job=ml%2Ftest", elastic[0].query)
            self.assertIn("procsPerNode=1", elastic[0].query)
            self.assertEqual(elastic[0].headers["Content-Type"], "application/x-ndjson")
            lines = [l for r in elastic for l in r.lines()]
            joined = [l for l in lines if "has joined round" in l.get("message", "")]
            self.assertEqual(len(joined), 1)
            self.assertEqual(joined[0]["hostname"], "node-q")
            statuses = [l["name"] for l in lines if "metadata" in l]
            self.assertIn("torchelastic.worker.status.SUCCEEDED", statuses)
            self.assertTrue(all(l["metadata"]["hostname"] == "node-q" for l in lines if "metadata" in l))
            self.assertEqual({l.get("lifeline_launch") for l in lines}, {launch}, "every line names the launch")
            first_elastic = lifeline.requests.index(elastic[0])
            first_events = min(i for i, r in enumerate(lifeline.requests) if r.path == "/api/v1/events")
            self.assertLess(first_events, first_elastic, "job.submitted goes before the rendezvous lines")
        finally:
            shutil.rmtree(scratch, ignore_errors=True)
            lifeline.close()


if __name__ == "__main__":
    unittest.main()
