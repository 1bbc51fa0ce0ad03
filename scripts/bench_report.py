#!/usr/bin/env python3
"""Turns JMH JSON results into the table between the markers of docs/benchmarks.md.

Medians of the measured iterations; ratios are computed within the same run.
"""
import json
import statistics
import sys

START = "<!-- results:start -->"
END = "<!-- results:end -->"


def load(path):
    results = {}
    for entry in json.load(open(path)):
        name = entry["benchmark"].rsplit(".", 2)
        key = name[-2] + "." + name[-1]
        params = entry.get("params") or {}
        if params:
            key += "[" + ",".join(f"{k}={v}" for k, v in sorted(params.items())) + "]"
        metric = entry["primaryMetric"]
        if "rawData" in metric:
            median = statistics.median([value for fork in metric["rawData"] for value in fork])
        else:
            # sample-time mode keeps a histogram, not per-iteration scores: its own p50
            median = metric["scorePercentiles"]["50.0"]
        alloc = entry.get("secondaryMetrics", {}).get("gc.alloc.rate.norm", {}).get("score")
        results[key] = {
            "median": median,
            "error": entry["primaryMetric"]["scoreError"],
            "unit": entry["primaryMetric"]["scoreUnit"],
            "alloc": alloc,
            "threads": entry.get("threads"),
        }
    return results


def fmt(value):
    if value is None:
        return "–"
    return f"{value:,.1f}" if abs(value) < 1000 else f"{value:,.0f}"


def table(results):
    lines = ["| benchmark | threads | median | ± error | unit | alloc B/op |", "|---|---|---|---|---|---|"]
    for key in sorted(results):
        r = results[key]
        lines.append(f"| `{key}` | {r['threads']} | {fmt(r['median'])} | {fmt(r['error'])} | {r['unit']} | {fmt(r['alloc'])} |")
    return lines


def ratios(results):
    def m(key):
        return results.get(key, {}).get("median")

    rows = ["| goal | measured | met |", "|---|---|---|"]
    plain = m("AnnotationBenchmark.plainCall")
    ours, r4j, spring = m("AnnotationBenchmark.retryOurs"), m("AnnotationBenchmark.retryResilience4j"), m("AnnotationBenchmark.retrySpringRetry")
    if None not in (plain, ours, r4j, spring):
        best = min(r4j, spring) - plain
        added = ours - plain
        rows.append(f"| `@Retry` added time ≤ ½ of the best peer's | ours +{added:.1f} ns, Resilience4j +{r4j - plain:.1f} ns, Spring Retry +{spring - plain:.1f} ns: ratio {added / best:.2f} | {'yes' if added <= best / 2 else 'no'} |")
        rows.append(f"| `@Retry` added time ≤ 100 ns | +{added:.1f} ns | {'yes' if added <= 100 else 'no'} |")
    off, raw, lim = m("AnnotationBenchmark.timeoutOursOffload"), m("AnnotationBenchmark.timeoutRawExecutor"), m("AnnotationBenchmark.timeoutResilience4jTimeLimiter")
    if None not in (off, raw, lim):
        rows.append(f"| `@Timeout` OFFLOAD ≤ 1.2 × raw executor round trip | {off / raw:.2f} × ({fmt(off)} vs {fmt(raw)} ns) | {'yes' if off <= 1.2 * raw else 'no'} |")
        rows.append(f"| `@Timeout` OFFLOAD below Resilience4j TimeLimiter | {fmt(off)} vs {fmt(lim)} ns ({off / lim:.2f} ×) | {'yes' if off < lim else 'no'} |")
    intr, every = m("AnnotationBenchmark.timeoutOursInterrupt"), m("AnnotationBenchmark.allThreeOursReplay")
    if None not in (intr, plain):
        rows.append(f"| `@Timeout` INTERRUPT overhead vs plain call | +{intr - plain:,.0f} ns | (reported) |")
    if None not in (every, plain):
        rows.append(f"| all three annotations (memory store, replay) vs plain call | +{every - plain:,.0f} ns | (reported) |")
    for store in ("redis", "jdbc"):
        for case in ("firstExecution", "replay"):
            o, r = m(f"StoreBenchmark.{case}Ours[store={store}]"), m(f"StoreBenchmark.{case}Raw[store={store}]")
            if None not in (o, r):
                rows.append(f"| `@Idempotent` {store} {case} ≥ 0.85 × raw | {o / r:.2f} × ({fmt(o)} vs {fmt(r)} ops/s) | {'yes' if o >= 0.85 * r else 'no'} |")
    return rows


def main():
    results = load(sys.argv[1])
    block = [START, "", "### Ratios (same run)", ""] + ratios(results) + ["", "### All results", ""] + table(results) + ["", END]
    path = sys.argv[2]
    text = open(path).read() if path else ""
    if START in text and END in text:
        text = text[: text.index(START)] + "\n".join(block) + text[text.index(END) + len(END):]
    else:
        text = text + "\n" + "\n".join(block) + "\n"
    open(path, "w").write(text)


if __name__ == "__main__":
    main()
