#!/usr/bin/env bash
# Load runs against the sample application, on the real MariaDB and Redis servers the tests use.
#
# scripts/load.sh [reliability] [requests] [min-seconds]
#   The long load run of the reliability issue: two sample instances sharing one MariaDB (and, in
#   the second round, one Redis for idempotency), 5 % injected inventory failures, 20 000 create
#   requests with 30 % duplicates from 24 client threads over at least 60 s, per store
#   (docs/internals/reliability.md). Without a subcommand, numeric arguments mean this run.
#
# scripts/load.sh overhead [rate] [seconds]
#   The end-to-end cost of the starter (issue 18): one sample instance (profiles mysql,redis) with
#   the starter on, then the same jar with --resilience.enabled=false, each under the same
#   open-model load (OpenModelLoad: fixed arrival rate, default 80 req/s, measured for 30 s after a
#   warm-up, then a closed-loop saturation phase), each under JFR. The runs alternate on, off, on,
#   off... (LOAD_ROUNDS pairs, 3), the instance pinned to one core and the load generator and servers
#   to the other (scripts/bench-servers.sh). Writes docs/internals/bench/load-overhead.json and
#   docs/internals/bench/load-overhead.md (medians of the pairs, with their spread). Environment:
#   LOAD_WARMUP (s, 15), LOAD_SATURATION (s, 15), LOAD_CONCURRENCY (32), LOAD_CREATE_SHARE (0.5),
#   LOAD_PRODUCTS (100), LOAD_ROUNDS (3), LOAD_SKIP_BUILD=1 to reuse the jar and classpath of an
#   earlier build.
#
# scripts/load.sh handwritten [rate] [seconds]
#   The starter's @Idempotent against the hand-written alternative (issue 49): the comparison
#   application of the benchmarks module (handwritten/) on the same Redis and MariaDB, one phase
#   per variant (the bare business call, the hand-written SET NX first call and duplicate, the
#   starter's first call and replay), each at a fixed rate (default 300 req/s, 20 s measured after
#   a 10 s warm-up) and then to saturation, with the process's CPU and allocation per request in
#   each window (read from the application at the windows' edges).
#   Once with the Redis store and once with the JDBC store (HANDWRITTEN_STORES). Writes
#   docs/internals/bench/handwritten.json and docs/internals/bench/handwritten.md.
#
# scripts/load.sh service --url=http://host:port --path=/payments --body='{"id":"{key}"}' [options]
#   The recipe of docs/load-testing.md against any service (yours): one request template at a fixed
#   arrival rate, a share of it exact duplicates, with an idempotency key and a budget header; the
#   options are OpenModelLoad's (--rate, --duration, --duplicate-share, --budget-ms, --headers, --out,
#   ...). Starts no server and builds only the load generator.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

MODE=reliability
case "${1:-}" in
  reliability) shift ;;
  overhead) MODE=overhead; shift ;;
  handwritten) MODE=handwritten; shift ;;
  service) shift
    ./mvnw -B -q -ntp -DskipTests -pl resilience-starter-benchmarks -am package dependency:build-classpath \
      -Dmdep.outputFile=target/classpath.txt
    exec java -Xmx512m -XX:+UseSerialGC \
      -cp "resilience-starter-benchmarks/target/classes:$(cat resilience-starter-benchmarks/target/classpath.txt)" \
      io.github.resiliencestarter.benchmarks.load.OpenModelLoad --mix=template --saturation=0 "$@" ;;
  "" | [0-9]*) ;;
  *) echo "usage: scripts/load.sh [reliability] [requests] [min-seconds] | overhead [rate] [seconds]" \
       "| handwritten [rate] [seconds]" \
       "| service --url=... --path=... [options]" >&2; exit 2 ;;
esac

# shellcheck source=scripts/test-servers.sh
source "$ROOT/scripts/test-servers.sh"
# shellcheck source=scripts/bench-servers.sh
source "$ROOT/scripts/bench-servers.sh"
start_test_servers
if [ "${LOAD_SKIP_BUILD:-0}" != 1 ]; then
  # clean: an up-to-date sample module keeps its repackaged jar, and with it the starter it was built with
  ./mvnw -B -q -ntp -DskipTests clean install
  if [ "$MODE" != reliability ]; then
    ./mvnw -B -q -ntp -pl resilience-starter-benchmarks dependency:build-classpath \
      -Dmdep.outputFile=target/classpath.txt
  fi
fi
JAR=resilience-starter-sample/target/resilience-starter-sample-0.1.0-SNAPSHOT.jar

pids=()
stop_instances() {
  for pid in "${pids[@]:-}"; do
    if [ -n "$pid" ]; then kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; fi
  done
  pids=()
}
trap 'stop_instances; _stop_test_servers' EXIT

# wait_healthy PORT PID [PATH]: fails at once when the instance has exited (e.g. its port was taken meanwhile)
wait_healthy() {
  for _ in $(seq 1 240); do
    curl -sf "http://127.0.0.1:$1${3:-/actuator/health}" >/dev/null && return 0
    kill -0 "$2" 2>/dev/null || { echo "the sample for port $1 exited; see its log" >&2; return 1; }
    sleep 0.5
  done
  echo "the sample on port $1 did not become healthy" >&2; return 1
}

reliability() {
  local requests="${1:-20000}" seconds_min="${2:-60}" store port profiles ports i
  for store in jdbc redis; do
    ports=()
    for i in 1 2; do
      port=$(_free_port)
      profiles="mysql"; [ "$store" = redis ] && profiles="mysql,redis"
      DB_URL="$RESILIENCE_TEST_JDBC_URL" DB_USER="$RESILIENCE_TEST_JDBC_USER" DB_PASSWORD="$RESILIENCE_TEST_JDBC_PASSWORD" \
        REDIS_URL="$RESILIENCE_TEST_REDIS_URL" java -Xmx512m -jar "$JAR" --server.port="$port" \
        --spring.profiles.active="$profiles" --sample.faults-endpoint=true --logging.level.root=WARN --spring.datasource.hikari.maximum-pool-size=30 \
        > "/tmp/load-$store-$i.log" 2>&1 &
      pids+=($!)
      ports+=("$port")
    done
    for i in 0 1; do
      port="${ports[$i]}"
      wait_healthy "$port" "${pids[$i]}"
      curl -s -X PUT "http://127.0.0.1:$port/inventory/faults" -H 'Content-Type: application/json' \
        -d '{"latencyMs":0,"failureRate":0.05,"failureStatus":503,"failNext":0}' >/dev/null
    done
    echo "== store: $store"
    java scripts/LoadGenerator.java "http://127.0.0.1:${ports[0]},http://127.0.0.1:${ports[1]}" "$requests" 24 0.3 \
      "$seconds_min" "$store$(date +%s)"
    for port in "${ports[@]}"; do
      echo "instance $port: retry budget denials $(curl -s "http://127.0.0.1:$port/actuator/prometheus" \
        | awk '/^resilience_retry_calls_seconds_count\{.*outcome="budget_denied"/ {s += $2} END {print s + 0}'), retries $(curl -s \
        "http://127.0.0.1:$port/actuator/prometheus" | awk '/^resilience_retry_calls_seconds_count\{.*outcome="success_with_retry"/ {s += $2} END {print s + 0}') calls succeeded after a retry"
    done
    stop_instances
    sleep 2
  done
}

# More stock rows than the sample's three, so the creates of both variants seldom meet on one row:
# the starter retries a version conflict, the switched-off sample answers it with a 500, and either
# would make the two variants do different work.
seed_products() {
  local count="$1" hostport db
  hostport="${RESILIENCE_TEST_JDBC_URL#*://}"; hostport="${hostport%%/*}"
  db="${RESILIENCE_TEST_JDBC_URL##*/}"; db="${db%%\?*}"
  if ! command -v mariadb >/dev/null 2>&1; then
    echo "no mariadb client: the creates use the sample's 3 products" >&2; return 1
  fi
  mariadb --no-defaults -h "${hostport%%:*}" -P "${hostport##*:}" -u "$RESILIENCE_TEST_JDBC_USER" \
    -p"$RESILIENCE_TEST_JDBC_PASSWORD" "$db" -e \
    "INSERT IGNORE INTO stock (product_id, quantity, version) VALUES $(seq -s, -f '(%g,1000000,0)' 1 "$count")"
}

overhead() {
  local rate="${1:-80}" seconds="${2:-30}" out="$ROOT/target/load-overhead" variant port products
  local warmup="${LOAD_WARMUP:-15}" saturation="${LOAD_SATURATION:-15}" concurrency="${LOAD_CONCURRENCY:-32}"
  local cp="resilience-starter-benchmarks/target/classes:$(cat resilience-starter-benchmarks/target/classpath.txt)"
  local run_id="O$(date +%s)"
  products="${LOAD_PRODUCTS:-100}"
  mkdir -p "$out" docs/internals/bench
  # on, off, on, off...: the medians of several pairs, so one disturbed run cannot decide a goal
  local order=() run=0 runs=() i
  for i in $(seq 1 "${LOAD_ROUNDS:-3}"); do order+=(on off); done
  pin_servers "$RESILIENCE_TEST_REDIS_URL" "$RESILIENCE_TEST_JDBC_URL"
  for variant in "${order[@]}"; do
    run=$((run + 1))
    local tag="$variant-$run"
    port=$(_free_port)
    local switch=()
    [ "$variant" = off ] && switch=(--resilience.enabled=false)
    # the same jar and JVM options for both; only the kill switch differs. JFR samples every thread's
    # allocation counter each second, so the measured window can be cut out of the recording.
    rm -f "$out/$tag.jfr"
    DB_URL="$RESILIENCE_TEST_JDBC_URL" DB_USER="$RESILIENCE_TEST_JDBC_USER" DB_PASSWORD="$RESILIENCE_TEST_JDBC_PASSWORD" \
      REDIS_URL="$RESILIENCE_TEST_REDIS_URL" "${PIN_APP[@]}" java -Xmx512m \
      "-XX:StartFlightRecording:filename=$out/$tag.jfr,settings=default,dumponexit=true,jdk.ThreadAllocationStatistics#period=1s" \
      -jar "$JAR" --server.port="$port" --spring.profiles.active=mysql,redis --logging.level.root=WARN \
      --spring.datasource.hikari.maximum-pool-size=30 "${switch[@]}" > "$out/$tag.log" 2>&1 &
    pids+=($!)
    wait_healthy "$port" "${pids[0]}"
    if [ "$run" = 1 ] && ! seed_products "$products"; then products=3; fi
    echo "== starter $variant: $rate req/s, ${warmup} s warm-up, ${seconds} s measured, ${saturation} s saturation" >&2
    "${PIN_LOAD[@]}" java -Xmx256m -XX:+UseSerialGC -cp "$cp" io.github.resiliencestarter.benchmarks.load.OpenModelLoad \
      --url="http://127.0.0.1:$port" --rate="$rate" --warmup="$warmup" --duration="$seconds" \
      --saturation="$saturation" --concurrency="$concurrency" --create-share="${LOAD_CREATE_SHARE:-0.5}" \
      --products="$products" --label="$tag" --run-id="$run_id-$run" --out="$out/$tag.json" >/dev/null
    stop_instances
    runs+=("$variant:$out/$tag.json:$out/$tag.jfr")
  done
  python3 scripts/load_overhead_report.py --out-json docs/internals/bench/load-overhead.json \
    --out-md docs/internals/bench/load-overhead.md --products "$products" \
    "${runs[@]}"
  # what of the first starter-on run's CPU and allocation ran inside the starter, by starter frame
  mkdir -p docs/internals/bench/profiles
  python3 scripts/jfr_starter_share.py "$out/on-1.jfr" 20 "$out/on-1.json" > docs/internals/bench/profiles/end-to-end-starter-share.txt
}

handwritten() {
  local rate="${1:-300}" seconds="${2:-20}" out="$ROOT/target/load-handwritten" store port variant path body
  local warmup="${LOAD_WARMUP:-10}" saturation="${LOAD_SATURATION:-10}" concurrency="${LOAD_CONCURRENCY:-16}"
  local cp="resilience-starter-benchmarks/target/classes:$(cat resilience-starter-benchmarks/target/classpath.txt)"
  local run_id="H$(date +%s)" phases=()
  rm -rf "$out"; mkdir -p "$out"
  pin_servers "$RESILIENCE_TEST_REDIS_URL" "$RESILIENCE_TEST_JDBC_URL"
  for store in ${HANDWRITTEN_STORES:-redis jdbc}; do
    port=$(_free_port)
    # server threads fixed for the run: allocation is counted over live threads
    "${PIN_APP[@]}" java -Xmx512m -cp "$cp" io.github.resiliencestarter.benchmarks.handwritten.ComparisonApplication \
      --server.port="$port" --logging.level.root=WARN \
      --spring.datasource.url="$RESILIENCE_TEST_JDBC_URL" --spring.datasource.username="$RESILIENCE_TEST_JDBC_USER" \
      --spring.datasource.password="$RESILIENCE_TEST_JDBC_PASSWORD" --spring.datasource.hikari.maximum-pool-size=16 \
      --spring.data.redis.url="$RESILIENCE_TEST_REDIS_URL" --resilience.idempotent.store="$store" \
      --resilience.idempotent.jdbc.initialize-schema=always \
      --server.tomcat.threads.max=64 --server.tomcat.threads.min-spare=64 > "$out/app-$store.log" 2>&1 &
    pids+=($!)
    wait_healthy "$port" "${pids[0]}" /comparison/counters
    # the hand-written variants use Redis whatever the starter's store: measured once
    local variants=(business starter-first starter-replay)
    [ "$store" = redis ] && variants=(business hand-first starter-first starter-replay hand-duplicate)
    for variant in "${variants[@]}"; do
      case "$variant" in
        business) path=/business/orders; body='{"id":"{key}","amount":3}' ;;
        hand-first) path=/hand/orders; body='{"id":"{key}","amount":3}' ;;
        starter-first) path=/starter/orders; body='{"id":"{key}","amount":3}' ;;
        # one key for the whole phase: the first request runs, every other one is a duplicate
        starter-replay) path=/starter/orders; body="{\"id\":\"replayed-$run_id-$store\",\"amount\":3}" ;;
        hand-duplicate) path=/hand/orders; body="{\"id\":\"duplicate-$run_id\",\"amount\":3}" ;;
      esac
      echo "== $store / $variant: $rate req/s, ${warmup} s warm-up, ${seconds} s measured, ${saturation} s saturation" >&2
      "${PIN_LOAD[@]}" java -Xmx256m -XX:+UseSerialGC -cp "$cp" io.github.resiliencestarter.benchmarks.load.OpenModelLoad \
        --mix=template --url="http://127.0.0.1:$port" --path="$path" --body="$body" --key-header= \
        --duplicate-share=0 --rate="$rate" --warmup="$warmup" --duration="$seconds" --saturation="$saturation" \
        --concurrency="$concurrency" --label="$store/$variant" --run-id="$run_id-$store-$variant" \
        --counters-url="http://127.0.0.1:$port/comparison/counters" --out="$out/$store-$variant.json" >/dev/null
      phases+=("$store/$variant:$out/$store-$variant.json")
    done
    stop_instances
  done
  python3 scripts/handwritten_report.py --out-json docs/internals/bench/handwritten.json \
    --out-md docs/internals/bench/handwritten.md --rate "$rate" "${phases[@]}"
}

"$MODE" "$@"
