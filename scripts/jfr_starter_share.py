#!/usr/bin/env python3
"""What share of an application's CPU samples and allocation runs inside the starter.

Usage: jfr_starter_share.py recording.jfr [rows] [load.json]
Walking each stack from its top, the first frame that is either the starter's
(io.github.resiliencestarter, its sample application excepted) or the application's (the sample,
Spring MVC's dispatch below which the application runs, or Spring's HTTP client, whose requests
the application makes even when a starter interceptor hands them on) decides: a sample whose
nearest such frame is the starter's counts for the starter, grouped by that frame, callees
included (a Redis command a store sends counts under the store); the rest is the application's
or the server's. With the load generator's JSON, only events of its measured window and the
saturation phase after it count (not the start, the JIT's first minutes or the warm-up). Used on
the end-to-end recordings that scripts/load.sh overhead leaves in target/load-overhead/.
"""
import collections
import datetime
import json
import subprocess
import sys

PACKAGE = "io.github.resiliencestarter."
APPLICATION = ("io.github.resiliencestarter.sample.", "org.springframework.web.servlet.",
               "org.springframework.http.client.")


def events(recording, kind, depth):
    out = subprocess.run(["jfr", "print", "--json", "--stack-depth", str(depth), "--events", kind, recording],
                         capture_output=True, text=True, check=True).stdout
    return json.loads(out)["recording"]["events"]


def starter_frame(frames):
    for frame in frames:
        method = frame["method"]
        name = method["type"]["name"].replace("/", ".")
        if name.startswith(APPLICATION):
            return None
        if name.startswith(PACKAGE):
            return f"{name[len(PACKAGE):]}.{method['name']}"
    return None


def epoch(text):
    return datetime.datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp()


def summarise(recording, kind, weight, rows, depth, window):
    total = 0.0
    starter = 0.0
    by_frame = collections.Counter()
    for event in events(recording, kind, depth):
        values = event["values"]
        if window and not window[0] <= epoch(values["startTime"]) <= window[1]:
            continue
        frames = (values.get("stackTrace") or {}).get("frames") or []
        w = weight(values)
        total += w
        frame = starter_frame(frames)
        if frame is not None:
            starter += w
            by_frame[frame] += w
    print(f"{kind}: {starter / total:.1%} under the starter ({len(by_frame)} distinct starter frames)")
    for frame, w in by_frame.most_common(rows):
        print(f"  {w / total:6.2%}  {frame}")


def main():
    recording = sys.argv[1]
    rows = int(sys.argv[2]) if len(sys.argv) > 2 else 15
    depth = 200
    window = None
    if len(sys.argv) > 3:
        load = json.load(open(sys.argv[3]))
        end = load["measuredEndEpochMs"] / 1000 + (load.get("saturation") or {}).get("seconds", 0)
        window = (load["measuredStartEpochMs"] / 1000, end)
        print(f"events from the measured window and the saturation phase: {end - window[0]:.0f} s")
    summarise(recording, "jdk.ExecutionSample", lambda v: 1.0, rows, depth, window)
    summarise(recording, "jdk.ObjectAllocationSample", lambda v: float(v.get("weight") or 0), rows, depth, window)


if __name__ == "__main__":
    main()
