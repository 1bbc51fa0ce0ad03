#!/usr/bin/env python3
"""Merges JMH JSON results of single-fork runs into one result per benchmark, as if its forks had run in one.

scripts/bench.sh runs the rows it compares across harnesses in rounds of one fork each (every benchmark of
the comparison once per round), so a disturbed minute of the machine falls on both sides of a comparison
instead of on all forks of one side. Usage: jmh_merge.py OUT.json ROUND.json...

Per benchmark: the iterations of every round, one fork per round (rawData), the score as their mean and
the error as half the spread of the rounds' means; the secondary metrics (allocation) as the mean of the
rounds' scores, their error as half the spread of those.
"""
import json
import statistics
import sys


def key(entry):
    return entry["benchmark"], json.dumps(entry.get("params") or {}, sort_keys=True), entry.get("threads")


def merge(entries):
    merged = json.loads(json.dumps(entries[0]))
    metric = merged["primaryMetric"]
    forks = [fork for entry in entries for fork in entry["primaryMetric"]["rawData"]]
    means = [statistics.fmean(fork) for fork in forks]
    metric["rawData"] = forks
    metric["score"] = statistics.fmean(value for fork in forks for value in fork)
    metric["scoreError"] = (max(means) - min(means)) / 2
    metric.pop("scoreConfidence", None)
    metric.pop("scorePercentiles", None)
    merged["forks"] = len(forks)
    for name, secondary in merged.get("secondaryMetrics", {}).items():
        scores = [entry["secondaryMetrics"][name]["score"] for entry in entries
                  if name in entry.get("secondaryMetrics", {})]
        secondary["score"] = statistics.fmean(scores)
        secondary["scoreError"] = (max(scores) - min(scores)) / 2
        secondary.pop("rawData", None)
    return merged


def main():
    out, rounds = sys.argv[1], sys.argv[2:]
    grouped = {}
    for path in rounds:
        for entry in json.load(open(path)):
            grouped.setdefault(key(entry), []).append(entry)
    json.dump([merge(entries) for entries in grouped.values()], open(out, "w"), indent=2)


if __name__ == "__main__":
    main()
