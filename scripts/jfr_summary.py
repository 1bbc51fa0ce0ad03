#!/usr/bin/env python3
"""Summarises a JFR recording of one JMH benchmark: where the bytes are allocated and where the CPU
samples fall, each grouped by the first frame outside the JDK (allocation) or the top frame (CPU),
and the share of the benchmark thread's CPU samples spent inside each of the starter's methods,
callees included (what a path's time pays for).

Usage: jfr_summary.py recording.jfr [rows]
Allocation weights come from jdk.ObjectAllocationSample (JFR's sampled estimate of bytes);
CPU shares from jdk.ExecutionSample. Shares are of the whole recording, JMH's own threads included.
"""
import collections
import json
import subprocess
import sys


def events(recording, kind, depth=16):
    out = subprocess.run(["jfr", "print", "--json", "--stack-depth", str(depth), "--events", kind, recording],
                         capture_output=True, text=True, check=True).stdout
    return json.loads(out)["recording"]["events"]


def frame_name(frame):
    method = frame["method"]
    return f"{method['type']['name'].replace('/', '.')}.{method['name']}:{frame.get('lineNumber')}"


def allocation(recording, rows):
    by_site = collections.Counter()
    for event in events(recording, "jdk.ObjectAllocationSample"):
        values = event["values"]
        frames = (values.get("stackTrace") or {}).get("frames") or []
        if any(f["method"]["type"]["name"].startswith("org/openjdk/jmh/runner") for f in frames[:3]):
            continue  # JMH's own bookkeeping between iterations
        site = next((frame_name(f) for f in frames
                     if not f["method"]["type"]["name"].startswith(("java/", "jdk/", "sun/"))),
                    frame_name(frames[0]) if frames else "?")
        by_site[f"{values['objectClass']['name'].replace('/', '.')} @ {site}"] += values.get("weight", 0)
    total = sum(by_site.values()) or 1
    print("allocation (share of sampled bytes, by class and first non-JDK frame):")
    for site, weight in by_site.most_common(rows):
        print(f"  {100 * weight / total:5.1f}%  {site}")


def cpu(recording, rows):
    by_frame = collections.Counter()
    for event in events(recording, "jdk.ExecutionSample"):
        frames = (event["values"].get("stackTrace") or {}).get("frames") or []
        if frames:
            by_frame[frame_name(frames[0])] += 1
    total = sum(by_frame.values()) or 1
    print(f"cpu (share of {total} execution samples, by top frame):")
    for frame, count in by_frame.most_common(rows):
        print(f"  {100 * count / total:5.1f}%  {frame}")


def inclusive(recording, rows):
    samples = 0
    by_method = collections.Counter()
    for event in events(recording, "jdk.ExecutionSample", 96):
        values = event["values"]
        if "jmh-worker" not in ((values.get("sampledThread") or {}).get("javaName") or ""):
            continue  # the benchmark's own threads only: timers and collectors are not the path
        samples += 1
        seen = set()
        for frame in (values.get("stackTrace") or {}).get("frames") or []:
            method = frame["method"]
            name = method["type"]["name"].replace("/", ".")
            if name.startswith("io.github.resiliencestarter.") and ".benchmarks." not in name:
                short = name[len("io.github.resiliencestarter."):]
                # a lambda's generated class name changes every run: name it after its enclosing class
                seen.add(short.split("$$Lambda")[0] + ".(lambda)" if "$$Lambda" in short
                         else f"{short}.{method['name']}")
        by_method.update(seen)
    print(f"cpu inside the starter's methods, callees included (share of {samples} samples of the benchmark threads):")
    for method, count in by_method.most_common(rows):
        print(f"  {100 * count / (samples or 1):5.1f}%  {method}")


if __name__ == "__main__":
    rows = int(sys.argv[2]) if len(sys.argv) > 2 else 15
    allocation(sys.argv[1], rows)
    cpu(sys.argv[1], rows)
    inclusive(sys.argv[1], rows)
