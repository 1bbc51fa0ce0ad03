#!/usr/bin/env bash
# Startup and memory against the peers (issue 49, item 6): the same small web application without a
# resilience library, with this starter (one @Retry, one @CircuitBreaker; plus
# resilience4j-circuitbreaker, which @CircuitBreaker needs) and with Resilience4j's Boot starter (one
# retry and one circuit breaker configured and used; plus aspectjweaver, which its annotations need).
# Each variant starts on a class path holding only its own library, in fresh JVMs, alternately
# (STARTUP_REPEATS rounds, 7), pinned to the application's core. Writes
# docs/internals/bench/startup-peers.json and docs/internals/bench/startup-peers.md.
# Expects the benchmarks module and the starter module built (scripts/bench.sh builds them); MVN_ARGS
# passes extra Maven arguments (e.g. -o).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
# shellcheck source=scripts/test-servers.sh
source "$ROOT/scripts/test-servers.sh"
# shellcheck source=scripts/bench-servers.sh
source "$ROOT/scripts/bench-servers.sh"

# shellcheck disable=SC2086
./mvnw -B -q -ntp ${MVN_ARGS:-} -pl resilience-starter-benchmarks,resilience-spring-boot-starter \
  dependency:build-classpath -Dmdep.outputFile=target/classpath.txt -Dmdep.includeScope=runtime
bench_cp="$(tr ':' '\n' < resilience-starter-benchmarks/target/classpath.txt)"
# the application's own class path: everything but the resilience libraries, what they bring, and
# the aspect weaver
base="$(grep -v -E '/(resilience-starter-|resilience4j-|spring-retry-|aspectjweaver-|transmittable-thread-local-|fastjson2-|context-propagation-)[^/]*\.jar$' <<< "$bench_cp")"
starter="$(tr ':' '\n' < resilience-spring-boot-starter/target/classpath.txt; echo
  grep -E '/resilience4j-(core|circuitbreaker)-[^/]*\.jar$' <<< "$bench_cp")"
resilience4j="$(grep -E '/(resilience4j-[^/]*|aspectjweaver-[^/]*)\.jar$' <<< "$bench_cp")"
classes="resilience-starter-benchmarks/target/classes"
join() { sort -u | paste -sd: -; }
declare -A paths=(
  [plain]="$classes:$(join <<< "$base")"
  [starter]="$classes:$(printf '%s\n%s\n' "$base" "$starter" | join)"
  [resilience4j]="$classes:$(printf '%s\n%s\n' "$base" "$resilience4j" | join)"
)
out="$ROOT/target/startup-peers.jsonl"
: > "$out"
for round in $(seq 1 "${STARTUP_REPEATS:-7}"); do
  for variant in plain starter resilience4j; do
    "${PIN_APP[@]}" java -Xmx512m -cp "${paths[$variant]}" \
      io.github.resiliencestarter.benchmarks.startup.StartupPeers "$variant" | tail -1 >> "$out"
  done
  echo "[startup-peers] round $round done" >&2
done
python3 scripts/startup_peers_report.py "$out" docs/internals/bench/startup-peers.json docs/internals/bench/startup-peers.md
