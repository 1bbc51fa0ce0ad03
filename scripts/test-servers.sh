#!/usr/bin/env bash
# Starts the real servers the tests use (sourced by test.sh and bench.sh).
# Provides: start_test_servers, which exports RESILIENCE_TEST_REDIS_URL and RESILIENCE_TEST_JDBC_URL
# (plus _USER/_PASSWORD) and stops what it started when the calling shell exits.

_servers_dir=""
_redis_pid=""
_mariadb_pid=""

_log() { echo "[test-servers] $*" >&2; }

_free_port() {
  local port
  while :; do
    port=$((20000 + RANDOM % 30000))
    # nothing answers there: free (bash's /dev/tcp needs no extra tool)
    if ! (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then echo "$port"; return; fi
  done
}

_stop_test_servers() {
  [ -n "$_redis_pid" ] && kill "$_redis_pid" 2>/dev/null || true
  [ -n "$_mariadb_pid" ] && kill "$_mariadb_pid" 2>/dev/null || true
  [ -n "$_redis_pid" ] && wait "$_redis_pid" 2>/dev/null || true
  [ -n "$_mariadb_pid" ] && wait "$_mariadb_pid" 2>/dev/null || true
  [ -n "$_servers_dir" ] && rm -rf "$_servers_dir" || true
}

_install_if_missing() {
  local missing=()
  command -v redis-server >/dev/null 2>&1 || missing+=(redis-server)
  { command -v mariadbd >/dev/null 2>&1 || [ -x /usr/sbin/mariadbd ]; } || missing+=(mariadb-server)
  if [ "${#missing[@]}" -gt 0 ]; then
    _log "installing ${missing[*]} from Debian's packages"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >/dev/null
    apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  fi
}

_wait_for() {
  local what="$1"; shift
  for _ in $(seq 1 100); do
    if "$@" >/dev/null 2>&1; then return 0; fi
    sleep 0.1
  done
  _log "$what did not come up"; return 1
}

start_test_servers() {
  if [ -n "${RESILIENCE_TEST_REDIS_URL:-}" ] && [ -n "${RESILIENCE_TEST_JDBC_URL:-}" ]; then
    _log "using servers from the environment"
    return 0
  fi
  if command -v docker >/dev/null 2>&1 && docker info >/dev/null 2>&1; then
    _log "Docker is available: tests will use Testcontainers"
    return 0
  fi
  _install_if_missing
  _servers_dir="$(mktemp -d /tmp/resilience-test-servers.XXXXXX)"
  trap _stop_test_servers EXIT

  local redis_port mariadb_port mariadbd
  redis_port="$(_free_port)"
  redis-server --bind 127.0.0.1 --port "$redis_port" --save "" --appendonly no \
    --dir "$_servers_dir" --daemonize no --logfile "$_servers_dir/redis.log" &
  _redis_pid=$!

  mariadbd="$(command -v mariadbd || echo /usr/sbin/mariadbd)"
  mkdir -p "$_servers_dir/mysql"
  mariadb-install-db --no-defaults --user=root --datadir="$_servers_dir/mysql" \
    --auth-root-authentication-method=normal >"$_servers_dir/mariadb-install.log" 2>&1
  mariadb_port="$(_free_port)"
  "$mariadbd" --no-defaults --user=root --datadir="$_servers_dir/mysql" --bind-address=127.0.0.1 \
    --port="$mariadb_port" --socket="$_servers_dir/mysql.sock" --skip-name-resolve \
    --pid-file="$_servers_dir/mariadb.pid" --log-error="$_servers_dir/mariadb.log" \
    --max-connections=500 --innodb-buffer-pool-size=256M &
  _mariadb_pid=$!

  _wait_for redis redis-cli -h 127.0.0.1 -p "$redis_port" ping
  _wait_for mariadb mariadb --no-defaults -uroot --protocol=socket -S "$_servers_dir/mysql.sock" -e "SELECT 1"
  mariadb --no-defaults -uroot --protocol=socket -S "$_servers_dir/mysql.sock" -e \
    "CREATE DATABASE IF NOT EXISTS resilience; CREATE USER IF NOT EXISTS 'resilience'@'127.0.0.1' IDENTIFIED BY 'resilience'; GRANT ALL ON *.* TO 'resilience'@'127.0.0.1'; FLUSH PRIVILEGES;"

  export RESILIENCE_TEST_REDIS_URL="redis://127.0.0.1:$redis_port"
  export RESILIENCE_TEST_JDBC_URL="jdbc:mariadb://127.0.0.1:$mariadb_port/resilience"
  export RESILIENCE_TEST_JDBC_USER="resilience"
  export RESILIENCE_TEST_JDBC_PASSWORD="resilience"
  _log "redis on $redis_port, mariadb on $mariadb_port"
}
