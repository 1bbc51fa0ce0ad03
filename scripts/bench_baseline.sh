#!/usr/bin/env bash
# Issue 32's settle-phase check: the success paths the settlement redesign moved (@Retry, @Timeout
# INTERRUPT, the three annotations' first call and replay, the Redis and JDBC stores' first
# execution and replay), measured on the build before the redesign and on this one, back to back on
# the same servers, with the raw store round trips and the floor as controls for machine drift.
# JMH as scripts/bench.sh runs it (one fork, 3 x 1 s warm-up, 10 x 1 s measured, -prof gc).
#
#   scripts/bench_baseline.sh [COMMIT]     COMMIT: the build before the redesign [f6ef5be]
#
# Builds COMMIT in a detached worktree under target/ (package only: nothing is installed over this
# build's artifacts), this build as bench.sh does, and writes docs/internals/bench/settle-regression.json and .md.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
BASE="${1:-f6ef5be}"
SELECTION='(AnnotationBenchmark\.(plainCall|floorCall|retryOurs|timeoutOursInterrupt|allThreeOursFirst|allThreeOursReplay)|StoreBenchmark\.(firstExecutionOurs|firstExecutionRaw|replayOurs|replayRaw))$'
WORK="$ROOT/target/settle-baseline"
TREE="$WORK/tree"

# shellcheck source=scripts/test-servers.sh
source "$ROOT/scripts/test-servers.sh"
# fresh Redis and MariaDB for each build, so neither meets the other's records; PostgreSQL and
# RabbitMQ are not measured here, and a value in their variables keeps them from starting
cleanup() { git -C "$ROOT" worktree remove --force "$TREE" 2>/dev/null || true; _stop_test_servers; }
fresh_servers() {
  stop_and_forget_test_servers
  unset RESILIENCE_TEST_REDIS_URL RESILIENCE_TEST_JDBC_URL
  RESILIENCE_TEST_PG_URL=unused RESILIENCE_TEST_RABBIT_URL=unused start_test_servers
  # start_test_servers sets its own exit trap: ours removes the worktree too
  trap cleanup EXIT
}
trap cleanup EXIT

mkdir -p "$WORK" docs/bench
git worktree remove --force "$TREE" 2>/dev/null || true
git worktree add --detach -f "$TREE" "$BASE" >/dev/null
# the reactor resolves the starter's modules from their own target/: the local repository keeps this build's
(cd "$TREE" && ./mvnw -B -q -ntp -DskipTests -pl resilience-starter-benchmarks -am package dependency:build-classpath \
  -Dmdep.outputFile=target/classpath.txt)
./mvnw -B -q -ntp -DskipTests install
./mvnw -B -q -ntp -pl resilience-starter-benchmarks dependency:build-classpath -Dmdep.outputFile=target/classpath.txt

run() {
  local dir="$1" out="$2"
  java -cp "$dir/resilience-starter-benchmarks/target/classes:$(cat "$dir/resilience-starter-benchmarks/target/classpath.txt")" \
    org.openjdk.jmh.Main -f 1 -wi 3 -w 1s -i 10 -r 1s -prof gc -rf json -rff "$out" "$SELECTION"
}
fresh_servers
run "$TREE" "$WORK/before.json"
fresh_servers
run "$ROOT" "$WORK/after.json"
python3 scripts/bench_baseline_report.py "$BASE" "$(git rev-parse --short HEAD)" "$WORK/before.json" "$WORK/after.json" \
  docs/internals/bench/settle-regression.json docs/internals/bench/settle-regression.md
echo "report: docs/internals/bench/settle-regression.md"
