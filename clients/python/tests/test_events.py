"""The events the agent builds use exactly the catalogue's field names and JSON types (docs/events.md)."""

from __future__ import annotations

import os
import re
import unittest
from typing import Any

import _fakes  # noqa: F401 - puts the package on the path
from lifeline_agent.events import EventFactory
from lifeline_agent.run import job_submitted_event
from lifeline_agent.config import Config

DOC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "docs", "events.md")


def catalogue() -> dict[str, dict[str, tuple[str, bool]]]:
    """{type: {field path: (type, required)}} from the tables of docs/events.md."""
    with open(DOC, encoding="utf-8") as f:
        text = f.read()
    out: dict[str, dict[str, tuple[str, bool]]] = {}
    for m in re.finditer(r"^### `([a-z_.]+)`\n(.*?)(?=^### |\Z)", text, re.S | re.M):
        fields: dict[str, tuple[str, bool]] = {}
        for row in re.finditer(r"^\| `([A-Za-z\[\].]+)` \|\s*([a-z ]+?)\s*\|\s*([^|]*?)\s*\|", m.group(2), re.M):
            fields[row.group(1)] = (row.group(2).strip(), row.group(3).strip().startswith("yes"))
        out[m.group(1)] = fields
    return out


def check(testcase: unittest.TestCase, event: dict[str, Any], spec: dict[str, tuple[str, bool]]) -> None:
    data = event["data"]
    for name, value in data.items():
        testcase.assertIn(name, spec, "%s: field %s is not in the catalogue" % (event["type"], name))
        kind = spec[name][0]
        if kind == "integer":
            testcase.assertTrue(isinstance(value, int) and not isinstance(value, bool), (name, value))
        elif kind == "number":
            testcase.assertTrue(isinstance(value, (int, float)) and not isinstance(value, bool), (name, value))
        elif kind == "string":
            testcase.assertIsInstance(value, str, name)
        elif kind == "boolean":
            testcase.assertIsInstance(value, bool, name)
        elif kind == "object":
            for sub, v in value.items():
                testcase.assertIn(name + "." + sub, spec, "%s: %s.%s unknown" % (event["type"], name, sub))
                if spec[name + "." + sub][0] == "integer":
                    testcase.assertTrue(isinstance(v, int) and not isinstance(v, bool))
    for name, (kind, required) in spec.items():
        if required and "." not in name and "[" not in name:
            testcase.assertIn(name, data, "%s: required %s missing" % (event["type"], name))
    testcase.assertLessEqual(len(event["id"]), 256)
    testcase.assertEqual(event["specversion"], "1.0")
    testcase.assertRegex(event["time"], r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$")
    testcase.assertRegex(event["subject"], r"^[A-Za-z0-9][A-Za-z0-9._:/@-]*$")


@unittest.skipUnless(os.path.exists(DOC), "docs/events.md is not next to this package")
class CatalogueTest(unittest.TestCase):
    def setUp(self) -> None:
        self.spec = catalogue()
        self.f = EventFactory("lifeline-agent/ml/test", "ml/test")

    def test_every_event_the_agent_sends_matches_its_table(self) -> None:
        f = self.f
        events = [
            f.progress("run/node/0", 48300, 412.5, 1689600.0),
            f.progress("run/node/0", 1),
            f.progress("run/node/0", 2, loss=0.25),
            f.progress("run/node/0", 3, loss=float("nan")),
            f.checkpoint_started("step-2-run-r0", 2, loss=float("inf")),
            f.checkpoint_failed("step-2-run-r0", 2, "NoSpaceError: not enough space", reason="no_space",
                                free_bytes=1000, needed_bytes=1250, capacity_bytes=8000),
            f.step_times("run/node/0", 3, 40, 1200, 0.251, 0.4, 0.2, local_rank=1, node="n1"),
            f.step_times("run/node/0", 0, 1, 1, 0.1),
            f.checkpoint_started("step-1-run-r0", 1),
            f.checkpoint_completed("step-1-run-r0", 1, 3.5, 3.5, bytes_=123, uri="file:///c/step-1/",
                                   checksum="sha256:ab", shards=1, async_=False, world_size=2),
            f.checkpoint_failed("step-1-run-r0", 1, "disk full"),
            f.checkpoint_verified("step-1-run-r0", True, "sha256:ab"),
            f.checkpoint_verified("step-1-run-r0", False, "sha256:cd"),
            f.restored("run/node/0", "step-1-run-r0", 1, run_id="run"),
            f.worker_failed("run/node/0", 3, run_id="run", node="n1", exit_code=-9, error="SIGKILL"),
            f.worker_failed("run/node/0", 3, run_id="run", error="RuntimeError: loss is NaN", step=30),
            job_submitted_event(Config(job="ml/test"), f, "rdzv-1", 1, 2, 8, 3, 8),
        ]
        for e in events:
            self.assertIn(e["type"], self.spec)
            check(self, e, self.spec[e["type"]])

    def test_ids_are_stable_and_distinct_per_fact(self) -> None:
        f = self.f
        a = f.checkpoint_completed("step-5-r-r0", 5, 1, 1)
        b = f.checkpoint_completed("step-5-r-r0", 5, 2, 2)
        self.assertEqual(a["id"], b["id"], "a resend of the same save dedupes")
        self.assertNotEqual(f.checkpoint_started("step-5-r-r0", 5)["id"], a["id"])
        self.assertNotEqual(f.checkpoint_verified("c", True)["id"], f.checkpoint_verified("c", False, "sha256:x")["id"])
        self.assertNotEqual(f.restored("k", "c", 5, seq=0)["id"], f.restored("k", "c", 5, seq=1)["id"])
        self.assertLessEqual(len(f.checkpoint_started("x" * 400, 1)["id"]), 256)

    def test_job_submitted_shape(self) -> None:
        e = job_submitted_event(Config(job="ml/test", checkpoint_interval=1800.0), self.f, "rid", 1, 2, 4, 3, 0,
                                env={"LIFELINE_OWNER": "alice"})
        self.assertEqual(e["id"], "job.submitted/rid")
        self.assertEqual(e["data"], {"namespace": "ml", "owner": "alice", "gpusPerNode": 0,
                                     "elastic": {"minNodes": 1, "maxNodes": 2, "procsPerNode": 4, "maxRestarts": 3},
                                     "checkpointIntervalSeconds": 1800})



class CheckpointReasonTest(unittest.TestCase):
    def test_exit_saves_say_why_and_unknown_reasons_are_left_out(self) -> None:
        from lifeline_agent.events import EventFactory
        f = EventFactory("lifeline-agent/ns/job", "ns/job")
        e = f.checkpoint_started("step-3-r-r0", 3, reason="signal")
        self.assertEqual(e["data"]["reason"], "signal")
        self.assertNotIn("reason", f.checkpoint_started("step-4-r-r0", 4, reason="whim")["data"])

if __name__ == "__main__":
    unittest.main()
