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
        # each fork's own median: a bimodal harness shows as forks that disagree
        forks = [statistics.median(fork) for fork in metric.get("rawData", [])]
        results[key] = {
            "median": median,
            "forks": forks,
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
    """Issue 18's goals, each as a row: goal, measured, met."""
    def m(key):
        return results.get(key, {}).get("median")

    def a(key):
        return results.get(key, {}).get("alloc")

    def met(ok):
        return "**yes**" if ok else "**no**"

    rows = ["| path | goal | measured | met |", "|---|---|---|---|"]
    plain, floor = m("AnnotationBenchmark.plainCall"), m("AnnotationBenchmark.floorCall")
    if None in (plain, floor):
        return rows + ["| (annotation benchmarks missing from this run) | | | |"]
    unit = floor - plain  # what a do-nothing MethodInterceptor adds: the floor every annotation pays
    floor_bytes = a("AnnotationBenchmark.floorCall") or 0
    rows.append(f"| interceptor floor | reference | +{unit:.1f} ns, {fmt(floor_bytes)} B/op over a plain call | – |")
    ours = m("AnnotationBenchmark.retryOurs")
    if ours is not None:
        added, alloc = ours - plain, a("AnnotationBenchmark.retryOurs") or 0
        peers = ", ".join(f"{name} +{m(key) - plain:.0f} ns / {fmt(a(key))} B" for name, key in
                          (("Resilience4j", "AnnotationBenchmark.retryResilience4j"),
                           ("Spring Retry", "AnnotationBenchmark.retrySpringRetry")) if m(key) is not None)
        rows.append(f"| `@Retry` success | ≤ 2 × floor's added time, ≤ floor + 64 B | +{added:.1f} ns = {added / unit:.2f} × floor; "
                    f"{fmt(alloc)} B (floor + {alloc - floor_bytes:.0f} B); peers: {peers} | "
                    f"{met(added <= 2 * unit and alloc <= floor_bytes + 64)} |")
    intr = m("AnnotationBenchmark.timeoutOursInterrupt")
    if intr is not None:
        rows.append(f"| `@Timeout` INTERRUPT success | ≤ 5 × floor | +{intr - plain:.1f} ns = {(intr - plain) / unit:.2f} × floor, "
                    f"{fmt(a('AnnotationBenchmark.timeoutOursInterrupt'))} B | {met(intr - plain <= 5 * unit)} |")
    off, raw, lim = m("AnnotationBenchmark.timeoutOursOffload"), m("AnnotationBenchmark.timeoutRawExecutor"), m("AnnotationBenchmark.timeoutResilience4jTimeLimiter")
    if None not in (off, raw, lim):
        rows.append(f"| `@Timeout` OFFLOAD | ≤ 1.1 × raw `submit().get()`, ≤ Resilience4j TimeLimiter | {off / raw:.2f} × raw "
                    f"({fmt(off)} vs {fmt(raw)} ns); {off / lim:.2f} × TimeLimiter ({fmt(lim)} ns) | {met(off <= 1.1 * raw and off <= lim)} |")
    for case, goal in (("First", 25), ("Replay", 15)):
        t = m(f"AnnotationBenchmark.allThreeOurs{case}")
        if t is not None:
            rows.append(f"| `@Timeout`(INTERRUPT) + `@Idempotent`(memory) + `@Retry`, {case.lower()} | ≤ {goal} × floor | "
                        f"+{t - plain:,.0f} ns = {(t - plain) / unit:.1f} × floor, {fmt(a(f'AnnotationBenchmark.allThreeOurs{case}'))} B "
                        f"| {met(t - plain <= goal * unit)} |")
    short = m("AnnotationBenchmark.allThreeOursFirstShortLived")
    if short is not None:
        rows.append(f"| same, first, records kept 10 ms instead of 2 s (the store's heap left out) | ≤ 25 × floor | "
                    f"+{short - plain:,.0f} ns = {(short - plain) / unit:.1f} × floor, "
                    f"{fmt(a('AnnotationBenchmark.allThreeOursFirstShortLived'))} B | {met(short - plain <= 25 * unit)} |")
    for store in ("redis", "jdbc"):
        for case, raw_name in (("firstExecution", "first"), ("replay", "replay")):
            o, r = m(f"StoreBenchmark.{case}Ours[store={store}]"), m(f"StoreBenchmark.{case}Raw[store={store}]")
            if None not in (o, r):
                rows.append(f"| `@Idempotent` {store} {raw_name} (16 threads) | ≥ 0.9 × raw | {o / r:.2f} × "
                            f"({fmt(o)} vs {fmt(r)} ops/s) | {met(o >= 0.9 * r)} |")
        near, r = m(f"StoreBenchmark.replayNearCached[store={store}]"), m(f"StoreBenchmark.replayRaw[store={store}]")
        if None not in (near, r):
            rows.append(f"| {store} replay with the near cache | ≥ 5 × raw read | {near / r:,.0f} × "
                        f"({fmt(near)} vs {fmt(r)} ops/s) | {met(near >= 5 * r)} |")
    rows += offload_defaults(results, m, met)
    return rows


def offload_defaults(results, m, met):
    """Issue 32: OFFLOAD with default settings, as the outside harness ran it (its own forks)."""
    ours, fixed = m("OffloadDefaultsBenchmark.oursDefault"), m("OffloadDefaultsBenchmark.rawFixedFour")
    shape, limiter = m("OffloadDefaultsBenchmark.rawStarterShape"), m("OffloadDefaultsBenchmark.timeLimiterFixedFour")
    if None in (ours, fixed, shape, limiter):
        return []
    forks = results["OffloadDefaultsBenchmark.oursDefault"]["forks"]
    spread = f"; forks {min(forks) / fixed:.2f}–{max(forks) / fixed:.2f} ×" if forks else ""
    return [f"| `@Timeout` OFFLOAD, default settings, one caller (issue 32's harness) | ≤ 1.1 × raw fixed pool of 4, "
            f"≤ TimeLimiter | {ours / fixed:.2f} × raw ({fmt(ours)} vs {fmt(fixed)} µs{spread}), "
            f"{ours / limiter:.2f} × TimeLimiter ({fmt(limiter)} µs), {ours / shape:.2f} × raw on the starter's "
            f"pool shape ({fmt(shape)} µs) | {met(ours <= 1.1 * fixed and ours <= limiter)} |"]


def fragment(path):
    """A markdown fragment another step of scripts/bench.sh wrote, when it ran."""
    try:
        return open(path).read().strip().splitlines()
    except OSError:
        return [f"(not produced in this run: {path})"]


def main():
    results = load(sys.argv[1])
    try:
        # the outside harness's exact OFFLOAD case runs with its own forks (scripts/bench.sh)
        results.update(load("docs/bench/offload-defaults.json"))
    except OSError:
        pass
    block = ([START, "", "### Goals of issue 18 (one JMH run)", ""] + ratios(results)
             + [""] + fragment("docs/bench/load-overhead.md")
             + ["", "### How cost grows", ""] + fragment("docs/bench/growth.md")
             + ["", "### All JMH results", ""] + table(results) + ["", END])
    path = sys.argv[2]
    text = open(path).read() if path else ""
    if START in text and END in text:
        text = text[: text.index(START)] + "\n".join(block) + text[text.index(END) + len(END):]
    else:
        text = text + "\n" + "\n".join(block) + "\n"
    open(path, "w").write(text)


if __name__ == "__main__":
    main()
