#!/usr/bin/env python3
"""The cost curve's figures (bench/cost-curve.json, written by bench/cost-curve.sh) merged into bench/results.json,
and its BENCHMARKS.md table printed. Standard library only: python3 bench/cost_curve_report.py"""
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))


def met(v, target):
    op, x = target.split()
    return {"<": v < float(x), "<=": v <= float(x), ">=": v >= float(x)}[op]


def rounded(v):
    v = round(v, 2 if v < 100 else 0)
    return int(v) if v == int(v) else v


def main():
    with open(os.path.join(HERE, "cost-curve.json")) as f:
        doc = json.load(f)
    figures, rows = [], []
    for p in doc["points"]:
        k = "%dk" % (p["gpus"] // 1024)
        at64 = "< 5" if p["gpus"] == 65536 else None

        def fig(metric, field, unit, target=None):
            v = rounded(p[field])
            name = "cost_%s_%s" % (metric, k)
            figures.append({"name": name, "value": v, "unit": unit, "runs": [v], "median": v, "target": target,
                            "met": None if target is None else met(v, target), "command": doc["command"],
                            "measured_at": p["measured_at"][:19] + "Z", "load_average": p["load_average"],
                            "note": "%d GPUs, %d nodes, %d jobs; one run (%s)" % (p["gpus"], p["nodes"], p["jobs"],
                                                                                 field)})
            return name, v

        cells = [fig("offered_events_per_s", "offered_events_per_s", "events/s"),
                 fig("applied_events_per_s", "applied_events_per_s", "events/s",
                     ">= %d" % round(p["offered_events_per_s"])),
                 fig("heap_bytes_per_gpu", "heap_bytes_per_gpu", "bytes", "<= 2048"),
                 fig("snapshot_hold_ms", "snapshot_hold_median_ms", "ms", at64),
                 fig("api_gpus_hold_ms", "api_gpus_page_hold_median_ms", "ms", at64),
                 fig("api_jobs_hold_ms", "api_jobs_page_hold_median_ms", "ms", at64),
                 fig("checkpoint_save_hold_ms", "checkpoint_save_hold_median_ms", "ms", at64),
                 fig("checkpoint_restore_ms", "checkpoint_restore_ms", "ms")]
        rows.append("| {:,} ({:,} nodes, {:,} jobs) | {} | `{}` |".format(
            p["gpus"], p["nodes"], p["jobs"],
            " | ".join("{:,}".format(v) if isinstance(v, int) else str(v) for _, v in cells),
            "`, `".join(n for n, _ in cells)))
    path = os.path.join(HERE, "results.json")
    with open(path) as f:
        results = json.load(f)
    names = {x["name"] for x in figures}
    results = [x for x in results if x["name"] not in names] + figures
    with open(path, "w") as f:
        json.dump(results, f, indent=2, ensure_ascii=False)
        f.write("\n")
    print("| GPUs | offered events/s | applied events/s, model thread | heap bytes per GPU | snapshot hold ms "
          "| /api/v1/gpus hold ms | /api/v1/jobs hold ms | checkpoint save hold ms | checkpoint restore ms | figure |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---|")
    print("\n".join(rows))


if __name__ == "__main__":
    main()
