/**
 * How the starter's cost grows with scale, one plain Java main per dimension, each run by
 * {@code scripts/growth.sh}: startup time and heap against the number of annotated methods
 * ({@link io.github.resiliencestarter.benchmarks.growth.StartupGrowth}), the JDBC claim latency
 * against the number of live records on MariaDB
 * ({@link io.github.resiliencestarter.benchmarks.growth.ClaimGrowth}), and the Redis memory of one
 * record against a raw {@code SET} of the same payload
 * ({@link io.github.resiliencestarter.benchmarks.growth.RedisMemoryGrowth}). Each writes one JSON
 * file; {@code scripts/growth_report.py} turns them into the tables with the growth per step.
 *
 * <p>These are not JMH benchmarks on purpose: a startup is measured once per fresh JVM, and the
 * other two measure a server's state (table size, memory), not a steady-state loop.
 */
package io.github.resiliencestarter.benchmarks.growth;
