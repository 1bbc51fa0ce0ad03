#!/usr/bin/env python3
"""Turns the runs of `scripts/load.sh overhead` into docs/internals/bench/load-overhead.{json,md}.

Arguments: --out-json FILE --out-md FILE [--products N] VARIANT:LOAD_JSON:JFR ...

Allocation per request comes from the server's JFR recording: jdk.ThreadAllocationStatistics
(every thread's allocated-bytes counter, sampled each second) differenced over the measured
window, divided by the requests answered in that window. The counter is exact (the JVM's own
per-thread accounting), where jdk.ObjectAllocationSample is a throttled sample whose weights
only estimate it; the sample sum is kept as a cross-check.
"""
import argparse
import datetime
import json
import os
import platform
import subprocess
import sys
import statistics
import textwrap


OPEN_MODEL_FIELDS = ("rate", "warmupSeconds", "durationSeconds", "createShare", "sent", "ok", "errors",
                     "errorsByKind", "loadAverage", "unfinished", "throughput", "latencyMs", "serviceTimeMs")


def epoch(text):
    return datetime.datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp()


def jfr_events(path, event, *extra):
    out = subprocess.run(["jfr", "print", "--json", *extra, "--events", event, path],
                         check=True, capture_output=True, text=True).stdout
    return json.loads(out)["recording"]["events"]


def sampling_instants(times):
    """The statistics event is written for all threads at once: one instant per cluster of times."""
    instants = []
    for t in sorted(times):
        if not instants or t - instants[-1][-1] > 0.2:
            instants.append([t])
        else:
            instants[-1].append(t)
    return [cluster[-1] for cluster in instants]


def allocation(jfr, start, end):
    """Bytes allocated by the JVM's threads between the first and last sampling instants inside
    [start, end], and that window's length."""
    samples = {}
    for event in jfr_events(jfr, "jdk.ThreadAllocationStatistics"):
        values = event["values"]
        thread = values["thread"] or {}
        name = thread.get("javaName") or thread.get("osName") or ""
        if name.startswith("JFR "):
            continue  # the recorder's own threads are the measurement, not the application
        samples.setdefault(thread.get("javaThreadId"), []).append((epoch(values["startTime"]), values["allocated"]))
    instants = [t for t in sampling_instants([t for points in samples.values() for t, _ in points])
                if start <= t <= end]
    if len(instants) < 2:
        return None, None
    first, last = instants[0], instants[-1]
    total = 0
    for points in samples.values():
        points.sort()
        # a thread first seen after the window opened was born in it: its baseline is zero
        before = [value for t, value in points if t <= first + 0.1]
        until = [value for t, value in points if t <= last + 0.1]
        if until:
            total += until[-1] - (before[-1] if before else 0)
    return total, last - first


def sampled_allocation(jfr, start, end):
    total = 0
    for event in jfr_events(jfr, "jdk.ObjectAllocationSample", "--stack-depth", "1"):
        values = event["values"]
        if start <= epoch(values["startTime"]) <= end:
            total += values["weight"]
    return total


def variant(name, load_path, jfr):
    load = json.load(open(load_path))
    start, end = load["measuredStartEpochMs"] / 1000, load["measuredEndEpochMs"] / 1000
    answered_per_second = (load["ok"] + load["errors"]) / load["durationSeconds"]
    allocated, window = allocation(jfr, start, end)
    per_request = allocated / (answered_per_second * window) if allocated is not None else None
    sampled = sampled_allocation(jfr, start, end)
    return {
        "variant": name,
        "run": load["label"],
        "openModel": {key: load.get(key) for key in OPEN_MODEL_FIELDS},
        "saturation": load.get("saturation"),
        "allocation": {
            "method": "jdk.ThreadAllocationStatistics deltas over the measured window",
            "windowSeconds": round(window, 3) if window else None,
            "bytesPerRequest": round(per_request) if per_request else None,
            "sampledBytesPerRequest": round(sampled / (answered_per_second * (end - start)))
            if answered_per_second else None,
        },
    }


def load_average(open_model):
    load = open_model.get("loadAverage")
    return "–" if not load else f"{load['start']:.1f} → {load['end']:.1f}"


def kib(value):
    return "–" if value is None else f"{value / 1024:,.1f} KiB"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--out-json", required=True)
    parser.add_argument("--out-md", required=True)
    parser.add_argument("--products", type=int, default=3)
    parser.add_argument("runs", nargs="+")
    args = parser.parse_args()

    variants = [variant(*run.split(":", 2)) for run in args.runs]
    result = {
        "generatedAt": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "machine": {"cpus": os.cpu_count(), "python": platform.python_version(),
                    "java": subprocess.run(["java", "-version"], capture_output=True, text=True).stderr.splitlines()[0]},
        "setup": {
            "application": "resilience-starter-sample, profiles mysql,redis (orders and stock on MariaDB, idempotency "
                           "records on Redis), -Xmx512m, Hikari pool 30, JFR default settings",
            "mix": "POST /order/create with a fresh order number (= idempotency key) and GET /order/{orderNo} of an "
                   "order the run created",
            "products": args.products,
            "switchedOff": "the same jar with --resilience.enabled=false",
        },
        "variants": variants,
    }
    def mean(values):
        values = [v for v in values if v is not None]
        return sum(values) / len(values) if values else None

    def answered(saturation):
        if not saturation or not saturation.get("countedSeconds"):
            return None
        return (saturation["ok"] + saturation["errors"]) / saturation["countedSeconds"]

    def summary(name):
        runs = [v for v in variants if v["variant"] == name]
        if not runs:
            return None
        return {
            "runs": len(runs),
            # every answer counts: the off run's stock conflicts (5xx nobody retried) are answers the on run retries away
            "saturationThroughput": mean([answered(v["saturation"]) for v in runs]),
            "p50Ms": mean([v["openModel"]["latencyMs"]["p50"] for v in runs]),
            "p99Ms": mean([v["openModel"]["latencyMs"]["p99"] for v in runs]),
            "p999Ms": mean([v["openModel"]["latencyMs"]["p999"] for v in runs]),
            "allocBytesPerRequest": mean([v["allocation"]["bytesPerRequest"] for v in runs]),
        }

    on, off = summary("on"), summary("off")
    # each on run with the off run after it: the goals are decided on the median of the pairs
    pairs = []
    for a, b in zip(variants[0::2], variants[1::2]):
        if (a["variant"], b["variant"]) != ("on", "off"):
            continue
        on_sat, off_sat = answered(a["saturation"]), answered(b["saturation"])
        on_alloc, off_alloc = a["allocation"]["bytesPerRequest"], b["allocation"]["bytesPerRequest"]
        pairs.append({
            "runs": [a["run"], b["run"]],
            "throughputRatio": on_sat / off_sat if on_sat and off_sat else None,
            "p50DeltaMs": a["openModel"]["latencyMs"]["p50"] - b["openModel"]["latencyMs"]["p50"],
            "p99DeltaMs": a["openModel"]["latencyMs"]["p99"] - b["openModel"]["latencyMs"]["p99"],
            "allocDeltaBytes": on_alloc - off_alloc if on_alloc and off_alloc else None,
        })
    if on and off:
        def spread(field):
            values = sorted(p[field] for p in pairs if p[field] is not None)
            if not values:
                return None
            return {"median": statistics.median(values), "min": values[0], "max": values[-1]}
        result["comparison"] = {
            "note": "per pair (an on run and the off run after it): on ÷ off and on − off; medians over the pairs",
            "on": on, "off": off, "pairs": pairs,
            "throughputRatio": spread("throughputRatio"),
            "p50DeltaMs": spread("p50DeltaMs"),
            "p99DeltaMs": spread("p99DeltaMs"),
            "allocDeltaBytesPerRequest": spread("allocDeltaBytes"),
        }
    json.dump(result, open(args.out_json, "w"), indent=2)
    open(args.out_json, "a").write("\n")

    rows = ["| run | offered | answered | max throughput (closed loop) | p50 | p99 | p99.9 | max | alloc/request "
            "| errors | load average |", "|---|---|---|---|---|---|---|---|---|---|---|"]
    for v in variants:
        o, s = v["openModel"], v["saturation"] or {}
        lat = o["latencyMs"]
        rows.append(f"| {v['run']} | {o['rate']:.0f} req/s | {o['throughput']:.1f} req/s | "
                    f"{s.get('throughput', 0):.1f} req/s | {lat['p50']:.2f} ms | {lat['p99']:.2f} ms | "
                    f"{lat['p999']:.2f} ms | {lat['max']:.2f} ms | {kib(v['allocation']['bytesPerRequest'])} | "
                    f"{o['errors']} + {s.get('errors', 0)} | {load_average(o)} |")
    first = variants[0]["openModel"]
    sat_setup = variants[0]["saturation"] or {}
    head = (
        "### End to end: the sample with the starter on and off\n\n"
        "`scripts/load.sh overhead` starts one sample instance (profiles `mysql,redis`: orders and stock on "
        "MariaDB, idempotency records on Redis, `-Xmx512m`, Hikari pool 30, JFR with default settings), loads it, "
        "stops it, and starts the same jar with `--resilience.enabled=false` under the same load, alternately; "
        "the instance runs on one core, the load generator and both servers on the other (`taskset`) "
        f"({len(variants)} runs in this order: {', '.join(v['run'] for v in variants)}; "
        f"{result['machine']['cpus']} cores). The load (`OpenModelLoad`) is an open model: "
        f"{first['rate']:.0f} req/s at fixed intended start times after a {first['warmupSeconds']} s warm-up ramp, "
        f"{first['durationSeconds']} s measured, latency from each request's intended start (so queueing is not "
        f"hidden by coordinated omission) in an HdrHistogram; {first['createShare']:.0%} of the requests create an "
        "order with a fresh "
        f"order number (= idempotency key, spread over {args.products} products), the others read an order "
        "the run created. Throughput cannot differ at a fixed rate that both sustain, so the throughput ratio comes from "
        f"a closed-loop saturation phase that follows: {sat_setup.get('concurrency', '–')} requests in flight for "
        f"{sat_setup.get('seconds', '–')} s, completed 2xx answers per second after a ramp of a fifth of it. "
        "Allocation per request: the JVM's per-thread allocation counters (`jdk.ThreadAllocationStatistics`, "
        "sampled every second) differenced over the measured window, divided by the requests answered in it; the "
        "sum of `jdk.ObjectAllocationSample` weights is kept as a cross-check in the JSON.\n\n")
    table = textwrap.fill(head.split("\n\n", 1)[0]) + "\n\n" + textwrap.fill(head.split("\n\n", 1)[1].strip(),
                                                                        width=100) + "\n\n" + "\n".join(rows) + "\n"
    if "comparison" in result:
        c = result["comparison"]

        def told(name, unit, digits, goal, ok):
            figure = c[name]
            if figure is None:
                return f"{goal}: –"
            return (f"**{figure['median']:+.{digits}f}{unit}** ({figure['min']:+.{digits}f} to {figure['max']:+.{digits}f}; "
                    f"{goal}: {'met' if ok(figure['median']) else 'missed'})")
        ratio = c["throughputRatio"]
        ratio_text = "–" if ratio is None else (f"**{ratio['median']:.3f} ×** ({ratio['min']:.3f} to {ratio['max']:.3f}; "
                                                f"goal ≥ 0.95: {'met' if ratio['median'] >= 0.95 else 'missed'})")
        table += "\n" + textwrap.fill(
            f"Medians over {len(c['pairs'])} pairs (each on run against the off run after it; the spread over "
            f"the pairs in brackets). Throughput (closed-loop saturation, every answer counted, on ÷ off): {ratio_text}. "
            f"p50 with the starter on: {told('p50DeltaMs', ' ms', 2, 'goal ≤ +1 ms', lambda v: v <= 1)}; "
            f"p99: {told('p99DeltaMs', ' ms', 2, 'no goal', lambda v: True)}. Allocation per request: "
            f"{told('allocDeltaBytesPerRequest', ' B', 0, 'goal ≤ +8 KiB', lambda v: v <= 8192)}. Errors are "
            "open-model + saturation answers other than 2xx: the table's closed-loop column counts 2xx only, the "
            "ratio counts them too, so the off run's unretried stock conflicts do not flatter it; raw figures: "
            "`docs/internals/bench/load-overhead.json`.", width=100) + "\n"
    cpus = result["machine"]["cpus"] or 1
    busy = [v["run"] for v in variants if (v["openModel"].get("loadAverage") or {}).get("end", 0) > 2 * cpus]
    if busy:
        # the load average counts this run's own processes too (about one per core when loaded);
        # far above the core count, other work was competing for the same cores
        table += "\n" + textwrap.fill(
            f"Disturbed: in {', '.join(busy)} the load average exceeded twice the {cpus} cores, so other work "
            "most likely shared the CPU with the measured instance, and the latencies and throughput of these "
            "runs carry that noise. Allocation per request is the figure least affected.",
            width=100) + "\n"
    open(args.out_md, "w").write(table)
    sys.stdout.write(table)


if __name__ == "__main__":
    main()
