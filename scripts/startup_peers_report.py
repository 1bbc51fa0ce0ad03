#!/usr/bin/env python3
"""Medians of scripts/startup-peers.sh's runs: JSON and a markdown table against the plain application."""
import json
import statistics
import sys
from datetime import datetime, timezone

LABELS = {
    "plain": "no resilience library",
    "starter": "this starter: one `@Retry`, one `@CircuitBreaker`",
    "resilience4j": "Resilience4j's Boot starter: one retry, one circuit breaker",
}
FIELDS = ("startedMs", "cpuMs", "heapAfterGcBytes", "metaspaceBytes", "loadedClasses", "beans")


def main():
    runs = [json.loads(line) for line in open(sys.argv[1]) if line.strip().startswith("{")]
    variants = {}
    for run in runs:
        variants.setdefault(run["variant"], []).append(run)
    medians = {name: {field: statistics.median(r[field] for r in group) for field in FIELDS}
               | {"runs": len(group), "proxied": all(r["proxied"] for r in group)}
               for name, group in variants.items()}
    json.dump({"generatedAt": datetime.now(timezone.utc).isoformat(timespec="seconds"),
               "medians": medians, "runs": runs}, open(sys.argv[2], "w"), indent=1)
    plain = medians.get("plain")
    lines = ["| application | runs | started (ms from JVM start) | CPU until started (ms) | heap after GC (MiB) "
             "| metaspace (MiB) | classes | beans | annotated bean proxied |",
             "|---|---|---|---|---|---|---|---|---|"]
    for name in ("plain", "starter", "resilience4j"):
        m = medians.get(name)
        if not m:
            continue

        def delta(field, scale=1.0, digits=0):
            value = m[field] / scale
            if name == "plain" or not plain:
                return f"{value:,.{digits}f}"
            return f"{value:,.{digits}f} ({(m[field] - plain[field]) / scale:+,.{digits}f})"
        lines.append(f"| {LABELS[name]} | {m['runs']} | {delta('startedMs')} | {delta('cpuMs')} | "
                     f"{delta('heapAfterGcBytes', 1 << 20, 1)} | {delta('metaspaceBytes', 1 << 20, 1)} | "
                     f"{delta('loadedClasses')} | {delta('beans')} | {'yes' if m['proxied'] else 'no'} |")
    open(sys.argv[3], "w").write("Medians of fresh JVMs started alternately, each on a class path with only its "
                                 "own library (differences from the plain application in brackets).\n\n"
                                 + "\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
