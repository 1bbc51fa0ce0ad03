#!/usr/bin/env python3
"""The hand-written comparison (scripts/load.sh handwritten) as JSON and a markdown table.

Each phase argument is LABEL:LOAD_JSON; LABEL is store/variant. The load generator read the comparison
application's CPU time, allocated bytes and answered order requests at the edges of the fixed-rate
window and of the counted saturation window; CPU and allocation per request are their differences
over the requests the application answered in between.
"""
import argparse
import json
import platform
import subprocess
from datetime import datetime, timezone

VARIANTS = {
    "business": "the business call alone (one INSERT)",
    "hand-first": "hand-written: SET NX EX 600, then the call (DEL on failure)",
    "starter-first": "@Idempotent first call (claim, call, stored answer)",
    "starter-replay": "@Idempotent replay of a completed key",
    "hand-duplicate": "hand-written duplicate: SET NX refused, 409, no answer to give",
}


def per_request(window):
    """CPU µs and allocated KiB per answered request between the window's two readings."""
    if not window or not window.get("start") or not window.get("end"):
        return None, None
    start, end = window["start"], window["end"]
    requests = end["requests"] - start["requests"]
    if requests <= 0:
        return None, None
    return ((end["cpuNanos"] - start["cpuNanos"]) / requests / 1000,
            (end["allocatedBytes"] - start["allocatedBytes"]) / requests / 1024)


def phase(argument):
    label, load_path = argument.split(":", 1)
    store, variant = label.split("/", 1)
    load = json.load(open(load_path))
    saturation = load.get("saturation", {})
    counters = load.get("counters", {})
    cpu, allocated = per_request(counters.get("open"))
    saturated_cpu, saturated_allocated = per_request(counters.get("saturation"))
    return {
        "store": store,
        "variant": variant,
        "what": VARIANTS.get(variant, variant),
        "rate": load["rate"],
        "ok": load["ok"],
        "errors": load["errors"],
        "non2xx": load.get("non2xxLatencyMs", {}).get("count", 0),
        "p50Ms": load["latencyMs"]["p50"],
        "p99Ms": load["latencyMs"]["p99"],
        "non2xxP50Ms": load.get("non2xxLatencyMs", {}).get("p50"),
        "saturationThroughput": saturation.get("throughput"),
        "saturationNon2xx": saturation.get("errors"),
        "cpuMicrosPerRequest": cpu,
        "allocatedKiBPerRequest": allocated,
        "saturationCpuMicrosPerRequest": saturated_cpu,
        "saturationAllocatedKiBPerRequest": saturated_allocated,
    }


def fmt(value, digits=2):
    return "–" if value is None else f"{value:,.{digits}f}"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--out-json", required=True)
    parser.add_argument("--out-md", required=True)
    parser.add_argument("--rate", type=float, required=True)
    parser.add_argument("phases", nargs="+")
    args = parser.parse_args()
    phases = [phase(argument) for argument in args.phases]
    java = subprocess.run(["java", "-version"], capture_output=True, text=True).stderr.splitlines()[0]
    json.dump({
        "generatedAt": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "machine": {"python": platform.python_version(), "java": java},
        "setup": "resilience-starter-benchmarks handwritten.ComparisonApplication on core 1; load generator, "
                 "Redis and MariaDB on core 0; -Xmx512m, 64 server threads, Hikari pool 16",
        "phases": phases,
    }, open(args.out_json, "w"), indent=1)
    lines = [f"Fixed rate {args.rate:g} req/s (latency from the intended send), then saturation; CPU and "
             "allocation per answered request in each window (fixed rate / saturation). The hand-written "
             "variants always use Redis.", "",
             "| store | variant | p50 ms | p99 ms | saturation req/s | CPU µs/req | alloc KiB/req | answers |",
             "|---|---|---|---|---|---|---|---|"]
    for p in phases:
        answers = f"{p['ok']} 2xx" + (f", {p['non2xx']} refused (p50 {fmt(p['non2xxP50Ms'])} ms)" if p["non2xx"] else "")
        lines.append(f"| {p['store']} | {p['what']} | {fmt(p['p50Ms'])} | {fmt(p['p99Ms'])} | "
                     f"{fmt(p['saturationThroughput'], 0)} | {fmt(p['cpuMicrosPerRequest'], 0)} / "
                     f"{fmt(p['saturationCpuMicrosPerRequest'], 0)} | {fmt(p['allocatedKiBPerRequest'], 1)} / "
                     f"{fmt(p['saturationAllocatedKiBPerRequest'], 1)} | {answers} |")
    open(args.out_md, "w").write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
