#!/usr/bin/env python3
"""What share of an application's CPU samples and allocation runs inside the starter.

Usage: jfr_starter_share.py recording.jfr [rows]
Walking each stack from its top, the first frame that is either the starter's
(io.github.resiliencestarter, its sample application excepted) or the application's (the sample,
or Spring MVC's dispatch below which the application runs) decides: a sample whose nearest such
frame is the starter's counts for the starter, grouped by that frame, callees included (a Redis
command a store sends counts under the store); the rest is the application's or the server's. Used on the end-to-end recordings that
scripts/load.sh overhead leaves in target/load-overhead/.
"""
import collections
import json
import subprocess
import sys

PACKAGE = "io.github.resiliencestarter."
APPLICATION = ("io.github.resiliencestarter.sample.", "org.springframework.web.servlet.")


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


def summarise(recording, kind, weight, rows, depth):
    total = 0.0
    starter = 0.0
    by_frame = collections.Counter()
    for event in events(recording, kind, depth):
        values = event["values"]
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
    summarise(recording, "jdk.ExecutionSample", lambda v: 1.0, rows, depth)
    summarise(recording, "jdk.ObjectAllocationSample", lambda v: float(v.get("weight") or 0), rows, depth)


if __name__ == "__main__":
    main()
