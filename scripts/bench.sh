#!/usr/bin/env bash
# Every measurement of docs/internals/benchmarks.md in one run (2-core budget; about 70 minutes):
#   1. JMH: the annotation paths against the interceptor floor and the peers, the retry decisions,
#      OFFLOAD with default settings as an outside harness ran it and the annotation harness's
#      OFFLOAD rows (6 rounds of one fork of 5 x 1 s each, both sides in every round), the stores
#      against their twins in the outside harness's configuration (4 rounds of one fork of 8 warm-up
#      and 5 measured iterations of 1 s),
#      and the idempotency stores against raw Redis / JDBC round trips at 16 threads, then again at
#      4 and 1 (one fork, 3 warm-up and 10 measured iterations of 1 s, 5 at 4 and 1 thread, -prof gc;
#      medians, so a few disturbed iterations do not move them); the replica-acknowledged Redis
#      rows run on a master and replica of their own (scripts/bench-servers.sh);
#   2. end to end: the sample under a fixed arrival rate with the starter on and off, alternately,
#      pinned (scripts/load.sh overhead), and the hand-written alternative (scripts/load.sh handwritten);
#   3. startup and memory against the peers (scripts/startup-peers.sh);
#   4. growth: startup and heap per annotated method, claim latency with millions of rows, Redis
#      memory per record, lease keeping against keys held in flight (scripts/growth.sh);
#   5. the settle phase against the build before the redesign (scripts/bench_baseline.sh);
#   6. JMH on the Boot 4 line: @Retry against Spring Framework 7's @Retryable.
# Starts the Redis and MariaDB servers the measurements need the same way the tests do, writes
# docs/internals/bench/*.json and *.md and regenerates the results section of docs/internals/benchmarks.md.
# Extra arguments go to JMH and skip steps 2 and 3, e.g. scripts/bench.sh AnnotationBenchmark.
# BENCH_SKIP_JMH=1 keeps the JMH results already in docs/internals/bench/results.json and runs steps 2 and 3
# (to finish a run whose later step failed); BENCH_SKIP_LOAD=1 keeps the last end-to-end tables and
# GROWTH_PARTS (scripts/growth.sh) picks the growth measurements, for a shorter run;
# BENCH_SKIP_BASELINE=1 keeps the last settle-phase table; BENCH_SKIP_STARTUP=1 the last startup table.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
# shellcheck source=scripts/test-servers.sh
source "$ROOT/scripts/test-servers.sh"
# shellcheck source=scripts/bench-servers.sh
source "$ROOT/scripts/bench-servers.sh"
start_test_servers
start_acked_redis
trap 'stop_acked_redis; _stop_test_servers' EXIT

# clean: a Boot 4 test leg leaves its own build of the sample in target/, which install would keep
./mvnw -B -q -ntp -DskipTests clean install
./mvnw -B -q -ntp -pl resilience-starter-benchmarks dependency:build-classpath \
  -Dmdep.outputFile=target/classpath.txt
CP="resilience-starter-benchmarks/target/classes:$(cat resilience-starter-benchmarks/target/classpath.txt)"
# the annotation harness's OFFLOAD rows: they run in forks of their own, with OffloadDefaultsBenchmark
OFFLOAD_ROWS='AnnotationBenchmark.timeout(OursOffload|RawExecutor|Resilience4jTimeLimiter)$'

mkdir -p docs/internals/bench

# jmh_in_rounds ROUNDS OUT JMH-ARGS...: the benchmarks of a comparison across harnesses, every one of them
# once per round in a fork of its own, merged into OUT (scripts/jmh_merge.py): a minute in which the
# machine is disturbed then falls on both sides of the comparison, not on every fork of one side
jmh_in_rounds() {
  local rounds="$1" out="$2" round
  shift 2
  for round in $(seq 1 "$rounds"); do
    java -cp "$CP" org.openjdk.jmh.Main -f 1 -rf json -rff "$out.round$round" "$@"
  done
  python3 "$ROOT/scripts/jmh_merge.py" "$out" $(for round in $(seq 1 "$rounds"); do echo "$out.round$round"; done)
  rm -f "$out".round*
}

if [ "$#" -gt 0 ]; then
  java -cp "$CP" org.openjdk.jmh.Main -f 1 -wi 3 -w 1s -i 10 -r 1s -prof gc \
    -rf json -rff docs/internals/bench/results.json "$@"
else
  if [ "${BENCH_SKIP_JMH:-0}" != 1 ]; then
    # hedging has its own sampling run (docs/internals/benchmarks.md, Hedging)
    java -cp "$CP" org.openjdk.jmh.Main -f 1 -wi 3 -w 1s -i 10 -r 1s -prof gc -e HedgingBenchmark \
      -e OffloadDefaultsBenchmark -e "$OFFLOAD_ROWS" -p store=redis,redis-acked,jdbc,jdbc-connectorj \
      -rf json -rff docs/internals/bench/results.json
    # each store as this harness builds it against the same store in the outside harness's configuration
    # (issue 49): in 4 rounds of one fork each, since one fork of a 16-thread row moved by a fifth between runs;
    # 8 warm-up iterations, since a fresh JVM's 16 threads on two cores still get faster for about 8 s
    jmh_in_rounds 4 docs/internals/bench/store-configurations.json -wi 8 -w 1s -i 5 -r 1s -prof gc \
      -p store=redis,redis-boot,jdbc-connectorj,jdbc-boot 'StoreBenchmark.(firstExecution|replay)(Ours|Raw)$'
    # OFFLOAD exactly as an outside harness ran it (issue 32): default settings, 5 x 1 s per fork; the
    # annotation harness's OFFLOAD rows beside it, in 6 rounds of one fork each, since a hand-off between
    # threads settles differently in each fork and one fork decided a row (issue 49)
    jmh_in_rounds 6 docs/internals/bench/offload-defaults.json -wi 5 -w 1s -i 5 -r 1s -prof gc \
      OffloadDefaultsBenchmark "$OFFLOAD_ROWS"
    # the store cases at fewer threads (issue 49): what one request pays, without 16 clients queueing
    for threads in 4 1; do
      java -cp "$CP" org.openjdk.jmh.Main -f 1 -wi 3 -w 1s -i 5 -r 1s -prof gc -t "$threads" \
        -p store=redis,redis-acked,jdbc -rf json -rff "docs/internals/bench/store-threads-$threads.json" StoreBenchmark
    done
  fi
  if [ "${BENCH_SKIP_LOAD:-0}" != 1 ]; then
    # built above; three on/off pairs, pinned, decided on their medians
    LOAD_SKIP_BUILD=1 "$ROOT/scripts/load.sh" overhead
    LOAD_SKIP_BUILD=1 "$ROOT/scripts/load.sh" handwritten
  fi
  if [ "${BENCH_SKIP_STARTUP:-0}" != 1 ]; then
    "$ROOT/scripts/startup-peers.sh"
  fi
  # GROWTH_PARTS chooses the growth measurements; the others keep their figures (scripts/growth_report.py)
  "$ROOT/scripts/growth.sh"
  if [ "${BENCH_SKIP_BASELINE:-0}" != 1 ]; then
    # its own servers, fresh for each build: this run's are stopped first so two sets never share the cores
    stop_and_forget_test_servers
    (unset RESILIENCE_TEST_REDIS_URL RESILIENCE_TEST_JDBC_URL RESILIENCE_TEST_PG_URL RESILIENCE_TEST_RABBIT_URL;
      "$ROOT/scripts/bench_baseline.sh")
  fi
fi
if [ "$#" -eq 0 ] && [ "${BENCH_SKIP_JMH:-0}" != 1 ]; then
  # Spring Framework 7's @Retryable against @Retry on the Boot 4 line (issue 49): the module's boot4
  # profile builds only that benchmark, into target/boot4; core and autoconfigure are packaged for Boot 4
  # in their own target/ for it and built again for Boot 3.5 afterwards (from clean: an incremental
  # build would keep the Boot 4 classes), since the module's class path points at those jars
  ./mvnw -B -q -ntp -Pboot4 -DskipTests -Dspring-boot.aot.skip=true \
    -pl resilience-starter-core,resilience-starter-autoconfigure,resilience-starter-benchmarks package \
    dependency:build-classpath -Dmdep.outputFile=target/boot4/classpath.txt \
    -DexcludeArtifactIds=resilience4j-spring-boot3,resilience4j-spring6,resilience4j-framework-common,resilience4j-micrometer
  java -cp "resilience-starter-benchmarks/target/boot4/classes:$(cat resilience-starter-benchmarks/target/boot4/classpath.txt)" \
    org.openjdk.jmh.Main -f 1 -wi 3 -w 1s -i 10 -r 1s -prof gc -rf json \
    -rff docs/internals/bench/framework-retryable.json FrameworkRetryableBenchmark
  ./mvnw -B -q -ntp -DskipTests -pl resilience-starter-core,resilience-starter-autoconfigure clean install
fi
python3 scripts/bench_report.py docs/internals/bench/results.json docs/internals/benchmarks.md
echo "results: docs/internals/bench/, report: docs/internals/benchmarks.md"
