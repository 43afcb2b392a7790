#!/usr/bin/env python3
"""The HTTP cost curve's table (bench/cost-curve-http.json, written by bench/cost-curve-http.sh): one row per size,
medians over its runs, and the figure names. Several files (e.g. a separate run of some sizes) are read as one set of
points; --merge also puts the figures into bench/results.json. Standard library only:

    python3 bench/cost_curve_http_report.py [--merge] [bench/cost-curve-http.json ...]
"""
import json
import os
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))

# figure metric -> (field of a point, unit)
FIGURES = [
    ("api_jobs_p99_ms", "api_jobs_p99_ms", "ms"),
    ("api_gpus_p99_ms", "api_gpus_p99_ms", "ms"),
    ("api_jobs_p50_ms", "api_jobs_p50_ms", "ms"),
    ("api_gpus_p50_ms", "api_gpus_p50_ms", "ms"),
    ("startup_seconds", "startup_seconds", "s"),
    ("http_achieved_events_per_s", "achieved_events_per_s", "events/s"),
]


def size_name(gpus):
    return "%dk" % (gpus // 1024) if gpus % 1024 == 0 else str(gpus)


def rounded(v):
    v = round(v, 2 if abs(v) < 100 else 0)
    return int(v) if v == int(v) else v


def by_size(points):
    """Points grouped by fleet size, smallest first."""
    groups = {}
    for p in points:
        groups.setdefault(p["gpus"], []).append(p)
    return [(g, groups[g]) for g in sorted(groups)]


def median_of(runs, field):
    values = [r[field] for r in runs if r.get(field) is not None]
    return statistics.median(values) if values else None


def figures(points, command):
    out = []
    for gpus, runs in by_size(points):
        for metric, field, unit in FIGURES:
            values = [rounded(r[field]) for r in runs if r.get(field) is not None]
            if not values:
                continue
            out.append({"name": "cost_%s_%s" % (metric, size_name(gpus)), "value": rounded(median_of(runs, field)),
                        "unit": unit, "runs": values, "median": rounded(median_of(runs, field)), "target": None,
                        "met": None, "command": command, "measured_at": runs[-1]["measured_at"][:19] + "Z",
                        "load_average": runs[-1]["load_average_start"],
                        "note": "%d GPUs, %d nodes, %d jobs; %d run(s); load average %s" % (
                            gpus, runs[0]["nodes"], runs[0]["jobs"], len(runs),
                            ", ".join("%s to %s" % (r["load_average_start"], r["load_average_end"]) for r in runs))})
    return out


def cell(v):
    if v is None:
        return "-"
    v = rounded(v)
    return "{:,}".format(v) if isinstance(v, int) else str(v)


def table(points):
    rows = ["| GPUs | runs | offered events/s | achieved events/s | /api/v1/jobs p50 ms | /api/v1/jobs p99 ms "
            "| /api/v1/gpus p50 ms | /api/v1/gpus p99 ms | requests per endpoint | simulation lag s | start-up s (runs) "
            "| first start s, empty database | load average |",
            "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|"]
    for gpus, runs in by_size(points):
        starts = [s for r in runs for s in r.get("startup_seconds_runs", [])]
        rows.append("| {:,} ({:,} nodes, {:,} jobs) | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} ({}) | {} | {} |".format(
            gpus, runs[0]["nodes"], runs[0]["jobs"], len(runs),
            cell(median_of(runs, "offered_events_per_s")), cell(median_of(runs, "achieved_events_per_s")),
            cell(median_of(runs, "api_jobs_p50_ms")), cell(median_of(runs, "api_jobs_p99_ms")),
            cell(median_of(runs, "api_gpus_p50_ms")), cell(median_of(runs, "api_gpus_p99_ms")),
            cell(min(min(r["api_jobs_requests"], r["api_gpus_requests"]) for r in runs)),
            cell(median_of(runs, "simulation_lag_seconds")),
            cell(median_of(runs, "startup_seconds")), ", ".join(cell(s) for s in starts),
            cell(median_of(runs, "first_start_seconds")),
            "; ".join("%s to %s" % (r["load_average_start"], r["load_average_end"]) for r in runs)))
    return "\n".join(rows)


def main(argv):
    merge = "--merge" in argv
    paths = [a for a in argv if a != "--merge"] or [os.path.join(HERE, "cost-curve-http.json")]
    points, commands = [], []
    for path in paths:
        with open(path) as f:
            doc = json.load(f)
        points += doc["points"]
        commands.append(doc["command"])
    print(table(points))
    found = figures(points, "; ".join(commands))
    print()
    for x in found:
        print("%s = %s %s (runs %s)" % (x["name"], x["value"], x["unit"], x["runs"]))
    if merge:
        path = os.path.join(HERE, "results.json")
        with open(path) as f:
            results = json.load(f)
        names = {x["name"] for x in found}
        results = [x for x in results if x["name"] not in names] + found
        with open(path, "w") as f:
            json.dump(results, f, indent=2, ensure_ascii=False)
            f.write("\n")


if __name__ == "__main__":
    main(sys.argv[1:])
