#!/usr/bin/env bash
# The long load run of the reliability issue: two sample instances sharing one MariaDB (and, in
# the second round, one Redis for idempotency), 5 % injected inventory failures, 20 000 create
# requests with 30 % duplicates from 24 client threads over at least 60 s, per store.
# Usage: scripts/load.sh [requests] [min-seconds]
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
REQUESTS="${1:-20000}"
SECONDS_MIN="${2:-60}"
# shellcheck source=scripts/test-servers.sh
source "$ROOT/scripts/test-servers.sh"
start_test_servers
./mvnw -B -q -ntp -DskipTests install
JAR=resilience-starter-sample/target/resilience-starter-sample-0.1.0-SNAPSHOT.jar

pids=()
stop_instances() { for pid in "${pids[@]:-}"; do [ -n "$pid" ] && kill "$pid" 2>/dev/null || true; done; pids=(); }
trap 'stop_instances; _stop_test_servers' EXIT

for store in jdbc redis; do
  ports=()
  for i in 1 2; do
    port=$(_free_port)
    profiles="mysql"; [ "$store" = redis ] && profiles="mysql,redis"
    DB_URL="$RESILIENCE_TEST_JDBC_URL" DB_USER="$RESILIENCE_TEST_JDBC_USER" DB_PASSWORD="$RESILIENCE_TEST_JDBC_PASSWORD" \
      REDIS_URL="$RESILIENCE_TEST_REDIS_URL" java -Xmx512m -jar "$JAR" --server.port="$port" \
      --spring.profiles.active="$profiles" --logging.level.root=WARN --spring.datasource.hikari.maximum-pool-size=30 \
      > "/tmp/load-$store-$i.log" 2>&1 &
    pids+=($!)
    ports+=("$port")
  done
  for port in "${ports[@]}"; do
    for _ in $(seq 1 120); do curl -sf "http://127.0.0.1:$port/actuator/health" >/dev/null && break; sleep 0.5; done
    curl -s -X PUT "http://127.0.0.1:$port/inventory/faults" -H 'Content-Type: application/json' \
      -d '{"latencyMs":0,"failureRate":0.05,"failureStatus":503,"failNext":0}' >/dev/null
  done
  echo "== store: $store"
  java scripts/LoadGenerator.java "http://127.0.0.1:${ports[0]},http://127.0.0.1:${ports[1]}" "$REQUESTS" 24 0.3 \
    "$SECONDS_MIN" "$store$(date +%s)"
  for port in "${ports[@]}"; do
    echo "instance $port: retry budget denials $(curl -s "http://127.0.0.1:$port/actuator/prometheus" \
      | awk '/^resilience_retry_calls_seconds_count\{.*outcome="budget_denied"/ {s += $2} END {print s + 0}'), retries $(curl -s \
      "http://127.0.0.1:$port/actuator/prometheus" | awk '/^resilience_retry_calls_seconds_count\{.*outcome="success_with_retry"/ {s += $2} END {print s + 0}') calls succeeded after a retry"
  done
  stop_instances
  sleep 2
done
