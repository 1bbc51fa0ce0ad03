#!/usr/bin/env bash
# Helpers the measurement scripts share (sourced, after scripts/test-servers.sh):
#   pin_servers      the test servers (found by their listening ports) onto the load's core
#   "${PIN_APP[@]}" cmd ... &   runs a command on the application's core ($! stays the command's pid)
#   "${PIN_LOAD[@]}" cmd ...    runs a command on the load's core
#   start_acked_redis / stop_acked_redis
#                    a Redis master with one replica for the replica-acknowledged store rows;
#                    exports RESILIENCE_BENCH_REDIS_ACKED_URL
# On a machine of two cores the application gets core 1 and everything else core 0
# (BENCH_APP_CPU, BENCH_LOAD_CPU), so the load generator and the servers never take the measured
# instance's CPU. Without taskset or with one core nothing is pinned, and the scripts say so.

BENCH_APP_CPU="${BENCH_APP_CPU:-1}"
BENCH_LOAD_CPU="${BENCH_LOAD_CPU:-0}"
_acked_master_pid=""
_acked_replica_pid=""

_can_pin() {
  command -v taskset >/dev/null 2>&1 && [ "$(nproc)" -ge 2 ]
}

# prefixes rather than functions: a function started with & runs in a subshell, whose pid is not the
# application's, and killing it would leave the application running
PIN_APP=()
PIN_LOAD=()
if _can_pin; then
  PIN_APP=(taskset -c "$BENCH_APP_CPU")
  PIN_LOAD=(taskset -c "$BENCH_LOAD_CPU")
fi

# pin_servers URL...: every thread of each process listening on the URLs' ports, onto the load's core
pin_servers() {
  if ! _can_pin || ! command -v ss >/dev/null 2>&1; then
    echo "[bench] not pinning the servers (needs taskset, ss and two cores)" >&2
    return 0
  fi
  local url port pid
  for url in "$@"; do
    [ -n "$url" ] || continue
    port="${url##*:}"; port="${port%%/*}"; port="${port%%\?*}"
    pid="$(ss -Hltnp "sport = :$port" | sed -n 's/.*pid=\([0-9]*\).*/\1/p' | head -1)"
    if [ -n "$pid" ]; then
      taskset -a -p -c "$BENCH_LOAD_CPU" "$pid" >/dev/null
    else
      echo "[bench] no process listens on $port: not pinned" >&2
    fi
  done
}

start_acked_redis() {
  local master replica dir
  master=$(_free_port); replica=$(_free_port)
  dir="$(mktemp -d /tmp/resilience-bench-redis.XXXXXX)"
  redis-server --port "$master" --bind 127.0.0.1 --save '' --appendonly no --dir "$dir" \
    > "$dir/master.log" 2>&1 &
  _acked_master_pid=$!
  redis-server --port "$replica" --bind 127.0.0.1 --save '' --appendonly no --dir "$dir" \
    --replicaof 127.0.0.1 "$master" > "$dir/replica.log" 2>&1 &
  _acked_replica_pid=$!
  for _ in $(seq 1 100); do
    if redis-cli -p "$master" INFO replication 2>/dev/null | grep -q '^slave0:.*state=online'; then
      export RESILIENCE_BENCH_REDIS_ACKED_URL="redis://127.0.0.1:$master"
      echo "[bench] redis master $master with replica $replica" >&2
      return 0
    fi
    sleep 0.2
  done
  echo "[bench] the replica did not attach; see $dir" >&2
  return 1
}

stop_acked_redis() {
  [ -n "$_acked_replica_pid" ] && kill "$_acked_replica_pid" 2>/dev/null || true
  [ -n "$_acked_master_pid" ] && kill "$_acked_master_pid" 2>/dev/null || true
  _acked_master_pid="" _acked_replica_pid=""
}
