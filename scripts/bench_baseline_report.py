#!/usr/bin/env python3
"""Issue 32's settle-phase check: this build against the build before the settlement redesign.

Usage: bench_baseline_report.py BASE HEAD BEFORE.json AFTER.json OUT.json OUT.md

Each row is a goal row of issue 32 in the form that row is judged in: an annotation path as a
multiple of the floor's added time (so the machine's drift between the two runs cancels), a store
path as a ratio to its raw round trip. A row regressed when this build's figure is worse than the
earlier build's by more than 5 %. Medians of the measured iterations, as bench_report.py takes them.
"""
import json
import statistics
import sys

GOAL = 0.05

ANNOTATION_ROWS = [("@Retry success", "retryOurs"), ("@Timeout INTERRUPT success", "timeoutOursInterrupt"),
                   ("all three, first call (memory store)", "allThreeOursFirst"),
                   ("all three, replay", "allThreeOursReplay")]

STORE_ROWS = [("first execution", "firstExecutionOurs", "firstExecutionRaw"),
              ("replay", "replayOurs", "replayRaw")]


def load(path):
    out = {}
    for entry in json.load(open(path)):
        name = entry["benchmark"].rsplit(".", 1)[1]
        store = (entry.get("params") or {}).get("store")
        raw = [v for fork in entry["primaryMetric"]["rawData"] for v in fork]
        alloc = entry.get("secondaryMetrics", {}).get("gc.alloc.rate.norm")
        out[(name, store)] = {"median": statistics.median(raw), "unit": entry["primaryMetric"]["scoreUnit"],
                              "bytes": alloc["score"] if alloc else None}
    return out


def annotation_multiple(run, name):
    plain, floor, path = (run[(n, None)]["median"] for n in ("plainCall", "floorCall", name))
    return (path - plain) / (floor - plain)


def main(base, head, before_path, after_path, out_json, out_md):
    before, after = load(before_path), load(after_path)
    rows = []
    for label, name in ANNOTATION_ROWS:
        b, a = annotation_multiple(before, name), annotation_multiple(after, name)
        rows.append({"row": label, "form": "× floor (lower is better)", "before": b, "after": a,
                     "change": a / b - 1,
                     "beforeNs": before[(name, None)]["median"], "afterNs": after[(name, None)]["median"],
                     "beforeBytes": before[(name, None)]["bytes"], "afterBytes": after[(name, None)]["bytes"]})
    for store in ("redis", "jdbc"):
        for label, ours, raw in STORE_ROWS:
            b = before[(ours, store)]["median"] / before[(raw, store)]["median"]
            a = after[(ours, store)]["median"] / after[(raw, store)]["median"]
            rows.append({"row": f"{store} {label} (16 threads)", "form": "× raw (higher is better)", "before": b,
                         "after": a, "change": b / a - 1,
                         "beforeOpsPerSecond": before[(ours, store)]["median"],
                         "afterOpsPerSecond": after[(ours, store)]["median"]})
    for row in rows:
        row["met"] = row["change"] <= GOAL
    json.dump({"base": base, "head": head, "goal": f"no row worse by more than {GOAL:.0%}", "rows": rows},
              open(out_json, "w"), indent=1)
    lines = [f"### Settle phase against the build before the redesign ({base} → {head}, one run)", "",
             "| row | judged as | before | after | worse by (negative: better) | met |", "|---|---|---|---|---|---|"]
    for row in rows:
        worse = f"{row['change']:+.1%}"
        lines.append(f"| {row['row']} | {row['form']} | {row['before']:.2f} | {row['after']:.2f} | {worse} "
                     f"| {'yes' if row['met'] else '**no**'} |")
    lines += ["", "Both builds measured back to back, each on fresh servers, by `scripts/bench_baseline.sh`; "
              "the floor and the raw round trips are measured in each build's own run, so a drift of the "
              "machine between the two runs cancels. Goal: no row worse by more than 5 %. Raw figures: "
              "`docs/internals/bench/settle-regression.json`.", ""]
    open(out_md, "w").write("\n".join(lines))


if __name__ == "__main__":
    main(*sys.argv[1:7])
