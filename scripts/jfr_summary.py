#!/usr/bin/env python3
"""Summarises a JFR recording of one JMH benchmark: where the bytes are allocated and where the CPU
samples fall, each grouped by the first frame outside the JDK (allocation) or the top frame (CPU).

Usage: jfr_summary.py recording.jfr [rows]
Allocation weights come from jdk.ObjectAllocationSample (JFR's sampled estimate of bytes);
CPU shares from jdk.ExecutionSample. Shares are of the whole recording, JMH's own threads included.
"""
import collections
import json
import subprocess
import sys


def events(recording, kind):
    out = subprocess.run(["jfr", "print", "--json", "--stack-depth", "16", "--events", kind, recording],
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


if __name__ == "__main__":
    rows = int(sys.argv[2]) if len(sys.argv) > 2 else 15
    allocation(sys.argv[1], rows)
    cpu(sys.argv[1], rows)
