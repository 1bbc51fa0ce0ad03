/**
 * End-to-end load against the running sample application: {@link
 * io.github.resiliencestarter.benchmarks.load.OpenModelLoad} sends the sample's order requests at a
 * fixed arrival rate (open model), measures latency from each request's intended start into an
 * HdrHistogram, then finds the sustainable throughput with a short closed-loop saturation phase.
 * Run by {@code scripts/load.sh overhead}, which compares the starter switched on and off, and by
 * {@code scripts/load.sh service}, which sends one request template with duplicates to any service
 * (docs/load-testing.md).
 */
package io.github.resiliencestarter.benchmarks.load;
