#!/usr/bin/env python3
"""Adds or replaces one figure in bench/results.json (a JSON array, one object per figure).

    python3 bench/record.py --name notice_to_prepare_exit_p99 --unit ms --runs 33.9 41.2 30.1 \\
        --target "<= 1000" --command "python3 bench/notice_to_agent.py --notices 50"

Or, with --merge FILE [NOTE], takes every figure a benchmark wrote with io.lifeline.testing.FigureFile
(bench/ingest.sh writes target/benchmarks/ingest.json). The median of --runs is the value; "met" is computed from the
median and the target ("<= X", "< X", ">= X", "> X", or with ≤ ≥), never given by hand. --baseline-name and --baseline give a comparison figure (another figure's
name where it is one); the ratio is value / baseline. The figure must also be marked in BENCHMARKS.md (see the
convention at its top; BenchmarkFiguresTest checks both files agree).
"""
import argparse
import json
import os
import statistics
import sys
from datetime import datetime, timezone

PATH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "results.json")
OPS = {"<=": lambda v, x: v <= x, ">=": lambda v, x: v >= x, "<": lambda v, x: v < x, ">": lambda v, x: v > x}
OPS["≤"] = OPS["<="]
OPS["≥"] = OPS[">="]


def met(value, target):
    if not target:
        return None
    t = target.strip()
    for op in ("<=", ">=", "≤", "≥", "<", ">"):
        if t.startswith(op):
            return OPS[op](value, float(t[len(op):].split()[0].replace(",", "")))
    raise SystemExit("target must start with <=, >=, ≤, ≥, < or >: %r" % target)


def merge(path, note):
    """Adds or replaces the figures a benchmark wrote with io.lifeline.testing.FigureFile (a JSON array)."""
    with open(path) as f:
        written = json.load(f)
    figures = []
    if os.path.exists(PATH):
        with open(PATH) as f:
            figures = json.load(f)
    for w in written:
        target = w.get("target")
        if isinstance(target, dict):
            target = ">= %s" % _number(target["at_least"]) if "at_least" in target else None
        w["target"] = target
        w["met"] = met(w["value"], target)
        loads = w.get("load_average")
        if isinstance(loads, list):
            w["load_average"] = round(statistics.median(loads), 2) if loads else None
            if note is None and len(loads) > 1:
                w["note"] = "load average %s at the start of the runs" % ", ".join("%.1f" % x for x in loads)
        if note:
            w["note"] = note
        figures = [x for x in figures if x.get("name") != w["name"]] + [w]
        json.dump(w, sys.stdout)
        print()
    with open(PATH, "w") as f:
        json.dump(figures, f, indent=1, ensure_ascii=False)
        f.write("\n")


def _number(x):
    return ("%d" % x) if float(x).is_integer() else repr(x)


def main(argv=None):
    if argv is None:
        argv = sys.argv[1:]
    if argv and argv[0] == "--merge":
        # python3 bench/record.py --merge target/benchmarks/ingest.json [note]
        merge(argv[1], argv[2] if len(argv) > 2 else None)
        return
    ap = argparse.ArgumentParser()
    ap.add_argument("--name", required=True)
    ap.add_argument("--unit", required=True)
    ap.add_argument("--runs", type=float, nargs="+", required=True)
    ap.add_argument("--target")
    ap.add_argument("--baseline", type=float)
    ap.add_argument("--baseline-name")
    ap.add_argument("--command", required=True)
    ap.add_argument("--load-average", type=float, default=os.getloadavg()[0])
    ap.add_argument("--note")
    a = ap.parse_args(argv)
    if (a.baseline is None) != (a.baseline_name is None):
        raise SystemExit("--baseline and --baseline-name go together")
    median = statistics.median(a.runs)
    figure = {"name": a.name, "value": median, "unit": a.unit, "runs": a.runs, "median": median}
    if a.baseline is not None:
        figure["baseline"] = {"name": a.baseline_name, "value": a.baseline}
        figure["ratio"] = round(median / a.baseline, 4) if a.baseline else None
    figure["target"] = a.target
    figure["met"] = met(median, a.target)
    figure["command"] = a.command
    figure["measured_at"] = datetime.now(timezone.utc).isoformat(timespec="seconds").replace("+00:00", "Z")
    figure["load_average"] = round(a.load_average, 2)
    if a.note:
        figure["note"] = a.note
    figures = []
    if os.path.exists(PATH):
        with open(PATH) as f:
            figures = json.load(f)
    figures = [x for x in figures if x.get("name") != a.name] + [figure]
    with open(PATH, "w") as f:
        json.dump(figures, f, indent=1, ensure_ascii=False)
        f.write("\n")
    json.dump(figure, sys.stdout)
    print()


if __name__ == "__main__":
    main()
