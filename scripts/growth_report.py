#!/usr/bin/env python3
"""Turns the growth measurements of scripts/growth.sh into docs/internals/bench/growth.json and the
markdown tables of docs/internals/bench/growth.md.

usage: growth_report.py WORK_DIR OUT_JSON OUT_MD
WORK_DIR holds startup.jsonl, claim.json, redis.json and held.json. A part this run did not measure
(GROWTH_PARTS) keeps its figures from the previous OUT_JSON, and its table says when they were measured.
"""
import datetime
import json
import os
import platform
import statistics
import sys


def load(path):
    if not os.path.exists(path):
        return None
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def startup_summary(path):
    if not os.path.exists(path):
        return None
    runs = [json.loads(line) for line in open(path, encoding="utf-8") if line.strip()]
    by_key = {}
    for run in runs:
        by_key.setdefault((run["methods"], run["mode"]), []).append(run)
    rows = []
    for methods in sorted({m for m, _ in by_key}):
        row = {"methods": methods}
        for mode in ("plain", "annotated"):
            group = by_key.get((methods, mode), [])
            # the median of fresh JVMs: one slow start on the shared machine does not move it
            for field in ("startMillis", "startCpuMillis", "heapBytes", "loadedClasses", "metaspaceBytes"):
                row[f"{mode}_{field}"] = statistics.median(r[field] for r in group) if group else None
            row[f"{mode}_runs"] = len(group)
            row[f"{mode}_proxiedBeans"] = group[0]["proxiedBeans"] if group else None
            row["beans"] = group[0]["beans"] if group else row.get("beans")
        for field in ("startMillis", "startCpuMillis", "heapBytes", "loadedClasses", "metaspaceBytes"):
            a, p = row["annotated_" + field], row["plain_" + field]
            row["share_" + field] = a - p if a is not None and p is not None else None
        rows.append(row)
    return {"runs": runs, "summary": rows}


def fmt(value, digits=0):
    if value is None:
        return "–"
    return f"{value:,.{digits}f}"


def startup_table(data):
    rows = data["summary"]
    out = ["| annotated methods (beans) | start, plain: wall / CPU | start, annotated: wall / CPU | "
           "starter's share: wall / CPU | heap after GC, plain | heap, annotated | starter's share | "
           "classes / metaspace share | growth per step (per added method: wall, CPU, heap) |",
           "|---|---|---|---|---|---|---|---|---|"]
    previous = None
    for row in rows:
        if previous is None:
            growth = "baseline"
        else:
            added = row["methods"] - previous["methods"]
            wall = (row["share_startMillis"] - previous["share_startMillis"]) * 1000 / added
            cpu = (row["share_startCpuMillis"] - previous["share_startCpuMillis"]) * 1000 / added
            heap = (row["share_heapBytes"] - previous["share_heapBytes"]) / added
            growth = (f"+{added:,} methods: {wall:,.0f} µs, {cpu:,.0f} µs CPU, **{heap:,.0f} B** per method")
        out.append(f"| {row['methods']:,} ({row['beans']}) "
                   f"| {fmt(row['plain_startMillis'])} / {fmt(row['plain_startCpuMillis'])} ms "
                   f"| {fmt(row['annotated_startMillis'])} / {fmt(row['annotated_startCpuMillis'])} ms "
                   f"| {fmt(row['share_startMillis'])} / {fmt(row['share_startCpuMillis'])} ms "
                   f"| {fmt(row['plain_heapBytes'] / 2**20, 1)} MiB | {fmt(row['annotated_heapBytes'] / 2**20, 1)} MiB "
                   f"| {fmt(row['share_heapBytes'] / 2**10)} KiB "
                   f"| {fmt(row['share_loadedClasses'])} / {fmt(row['share_metaspaceBytes'] / 2**10)} KiB "
                   f"| {growth} |")
        previous = row
    runs = min(min(r["plain_runs"], r["annotated_runs"]) for r in rows)
    proxied = ", ".join(f"{r['annotated_proxiedBeans']}/{r['beans']}" for r in rows)
    out.append("")
    out.append(f"Median of {runs} fresh JVMs per cell (`-XX:+UseSerialGC -Xmx1g`, `WebApplicationType.NONE`, "
               "memory idempotency store). *Start* is `SpringApplication.run` from call to return, as wall time "
               "and as the process's CPU time (all threads; steadier than wall time on a shared machine); "
               "*heap* is what survives four `System.gc()` calls with the context open. *Plain* is the same "
               "generated classes without annotations (the starter still auto-configured), so the share is "
               "what the annotations cost; a negative share at small N is noise. Beans proxied in the "
               f"annotated runs: {proxied}.")
    return out


def claim_table(data):
    steps = data["steps"]
    out = ["| live rows | table (data + indexes) | fill | p50 | p90 | p99 | p99.9 | claims/s | "
           "growth per step (p99) |",
           "|---|---|---|---|---|---|---|---|---|"]
    previous = None
    for step in steps:
        rows = f"{step['liveRows']:,}"
        if step["liveRows"] < step["targetRows"]:
            rows += f" (target {step['targetRows']:,}: fill cap reached)"
        if previous is None:
            growth = "baseline"
        else:
            factor = step["liveRows"] / previous["liveRows"]
            growth = (f"×{factor:,.0f} rows: p99 {step['p99Micros'] - previous['p99Micros']:+,.0f} µs "
                      f"(×{step['p99Micros'] / previous['p99Micros']:.2f}), p50 "
                      f"{step['p50Micros'] - previous['p50Micros']:+,.0f} µs")
        out.append(f"| {rows} | {fmt(step['tableBytes'] / 2**20)} MiB | {fmt(step['fillSeconds'], 1)} s "
                   f"| {fmt(step['p50Micros'])} µs | {fmt(step['p90Micros'])} µs | **{fmt(step['p99Micros'])} µs** "
                   f"| {fmt(step['p999Micros'])} µs | {fmt(step['claimsPerSecond'])} | {growth} |")
        previous = step
    out.append("")
    out.append(f"`JdbcIdempotencyStore.claim` of a fresh key (INSERT on the unique key, in a transaction of its "
               f"own), {data['claims']:,} measured claims after 2,000 unmeasured ones, {data['threads']} threads, "
               f"{data['mariadb']}, InnoDB buffer pool {data['bufferPoolBytes'] / 2**20:,.0f} MiB, "
               # runs before the server flushed once a second recorded no setting: they flushed at each commit
               f"`innodb_flush_log_at_trx_commit = {data.get('flushLogAtTrxCommit', 1)}`. The table is the benchmark's own, filled server-side "
               "from the sequence engine with completed, live rows in the store's shape (random-looking "
               "45-character keys, SHA-256 fingerprints, 200-byte JSON bodies, expiry a day away); before "
               "each measurement the fill's dirty pages are mostly flushed (at most 30 s), and the measured rows "
               "are deleted after it. Percentiles are exact (sorted samples).")
    return out


def redis_table(data):
    steps = data["steps"]
    out = ["| body | record text (body + fields) | encoding | record (ours) | raw `SET` | ratio (goal ≤ 1.5×) "
           "| growth per step (per added body byte: ours / raw) |",
           "|---|---|---|---|---|---|---|"]
    previous = None
    for step in steps:
        if previous is None:
            growth = "baseline"
        else:
            added = step["payloadBytes"] - previous["payloadBytes"]
            growth = (f"{(step['oursBytes'] - previous['oursBytes']) / added:.2f} B / "
                      f"{(step['rawSetBytes'] - previous['rawSetBytes']) / added:.2f} B")
        met = "met" if step["ratio"] <= 1.5 else "**missed**"
        out.append(f"| {step['payloadBytes']:,} B | {step['recordTextBytes']:,.0f} B | {step['encoding']} "
                   f"| {step['oursBytes']:,.0f} B | {step['rawSetBytes']:,.0f} B | {step['ratio']:.2f}× {met} "
                   f"| {growth} |")
        previous = step
    out.append("")
    out.append(f"Average `MEMORY USAGE key SAMPLES 0` over {data['records']:,} records written by "
               "`RedisIdempotencyStore` (claim, then completion with a JSON body), against `SET` of the same "
               "body under a key of the same length (45 characters) with the same TTL; Redis "
               f"{data['redis']}. A record is one string: the body plus its state, expiry, response type, "
               "creation time, fingerprint and operation name.")
    return out


def held_table(data):
    out = ["| keys held in flight | process CPU (ms per s) | extensions per s (expected: 3 per lease) "
           "| store round trips per s | Redis commands per s | CPU per extension |",
           "|---|---|---|---|---|---|"]
    for step in data["steps"]:
        per = (f"{step['cpuMillisPerSecond'] * 1000 / step['extensionsPerSecond']:,.0f} µs"
               if step["extensionsPerSecond"] else "–")
        # figures measured before the keeper batched have no round-trip count
        trips = f"{step['storeCallsPerSecond']:,.1f}" if "storeCallsPerSecond" in step else "–"
        out.append(f"| {step['held']:,} | {step['cpuMillisPerSecond']:.2f} | {step['extensionsPerSecond']:,.1f} "
                   f"({step['expectedPerSecond']:,.1f}) | {trips} | {step['commandsPerSecond']:,.1f} | {per} |")
    out.append("")
    out.append(f"Executions in flight on the Redis store, each claim's lease ({data['leaseMillis'] / 1000:.0f} s, "
               "the default) kept by the `LeaseKeeper` as the engine keeps it; measured over "
               f"{data['windowSeconds']} s after one extension round, with nothing else running in the process. "
               "CPU is the whole process's (the keeper's timer, its extension threads and Lettuce's I/O), so the "
               "first row is mostly the idle JVM. Redis counts the commands inside a script too: an extension is "
               "one script of five (GET, TIME, PTTL, SET and the EVALSHA itself). The keeper hands the leases due at "
               "a tick to the store in batches of up to 256, which the Redis store sends as one pipeline: a round "
               "trip carries a batch, not one key.")
    return out


def main():
    work, out_json, out_md = sys.argv[1:4]
    startup = startup_summary(os.path.join(work, "startup.jsonl"))
    claim = load(os.path.join(work, "claim.json"))
    redis = load(os.path.join(work, "redis.json"))
    held = load(os.path.join(work, "held.json"))
    now = datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")
    measured = {"startup": startup, "claim": claim, "redis": redis, "held": held}
    previous = load(out_json) or {}
    when = {}
    for part, data in measured.items():
        if data is None and previous.get(part) is not None:
            measured[part] = previous[part]
            when[part] = previous.get("measured", {}).get(part, previous.get("generated"))
        elif data is not None:
            when[part] = now
    startup, claim, redis, held = (measured[k] for k in ("startup", "claim", "redis", "held"))
    result = {
        "generated": now, "measured": when,
        "machine": {"cpus": os.cpu_count(), "os": platform.platform()},
        **measured,
    }
    with open(out_json, "w", encoding="utf-8") as f:
        json.dump(result, f, indent=2)
        f.write("\n")
    lines = ["<!-- generated by scripts/growth.sh from docs/internals/bench/growth.json; do not edit by hand -->", "",
             f"Measured on {os.cpu_count()} CPUs shared with other work; each table says when.", ""]

    def dated(part):
        return [f"Measured {when[part]}.", ""]
    if startup:
        lines += ["### Startup against annotated methods", ""] + dated("startup") + startup_table(startup) + [""]
    if claim:
        lines += ["### JDBC claim latency against live records (MariaDB)", ""] + dated("claim") + claim_table(claim) + [""]
    if redis:
        lines += ["### Redis memory per record against a raw `SET`", ""] + dated("redis") + redis_table(redis) + [""]
    if held:
        lines += ["### Lease keeping against keys held in flight (Redis)", ""] + dated("held") + held_table(held) + [""]
    with open(out_md, "w", encoding="utf-8") as f:
        f.write("\n".join(lines))


if __name__ == "__main__":
    main()
