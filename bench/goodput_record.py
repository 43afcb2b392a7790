#!/usr/bin/env python3
"""Puts the goodput bench's figures into bench/results.json (through bench/record.py): per size, the median over the
runs (seeds) of the ETTR with Lifeline (against the ETTR without it as its baseline), without it, the Young/Daly bound,
the distance to the bound, and the ledger's error against the simulator's ground truth.

    python3 bench/goodput_record.py bench/goodput.json [bench/goodput-gcp.json]
"""
import json
import statistics
import sys

import record

COMMAND = "bench/goodput"
SIZES = {1024: "1k", 16384: "16k"}


def figures(path, suffix=""):
    with open(path) as f:
        runs = json.load(f)["runs"]
    by_size = {}
    for r in runs:
        by_size.setdefault(r["gpus"], []).append(r)
    for gpus, rs in sorted(by_size.items()):
        size = SIZES.get(gpus, str(gpus)) + suffix
        seeds = ", ".join(str(r["seed"]) for r in rs)
        note = "seeds %s, %s days, notice %s s; per run in bench/%s" % (
            seeds, rs[0]["days"], rs[0]["notice_s"], path.split("/")[-1])
        without = [round(r["without_lifeline"]["ettr"] * 100, 3) for r in rs]
        with_ = [round(r["with_lifeline"]["ettr"] * 100, 3) for r in rs]
        bound = [round(r["ettr_bound"] * 100, 3) for r in rs]
        gap = [round((r["ettr_bound"] - r["with_lifeline"]["ettr"]) * 100, 3) for r in rs]
        error = [round(max(r["with_lifeline"]["ledger_error_pp"], r["without_lifeline"]["ledger_error_pp"]), 4)
                 for r in rs]
        base = "goodput_ettr_without_lifeline_" + size
        record.main(["--name", base, "--unit", "percent", "--runs", *map(str, without),
                     "--command", COMMAND, "--note", note])
        record.main(["--name", "goodput_ettr_with_lifeline_" + size, "--unit", "percent",
                     "--runs", *map(str, with_), "--baseline-name", base,
                     "--baseline", str(statistics.median(without)),
                     *(["--target", ">= 97"] if size == "1k" else []),
                     "--command", COMMAND, "--note", note])
        if suffix:
            continue
        record.main(["--name", "goodput_ettr_bound_" + size, "--unit", "percent", "--runs", *map(str, bound),
                     "--command", COMMAND, "--note", note])
        record.main(["--name", "goodput_bound_gap_pp_" + size, "--unit", "pp", "--runs", *map(str, gap),
                     *(["--target", "<= 1"] if size == "1k" else []), "--command", COMMAND, "--note", note])
        record.main(["--name", "goodput_ledger_error_pp_" + size, "--unit", "pp", "--runs", *map(str, error),
                     "--target", "<= 0.5", "--command", COMMAND,
                     "--note", note + "; each run's value is the larger of the two arms' errors"])


if __name__ == "__main__":
    figures(sys.argv[1])
    for extra in sys.argv[2:]:
        figures(extra, "_gcp_notice")
