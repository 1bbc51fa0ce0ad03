#!/usr/bin/env bash
# Starts the real servers the tests use (sourced by test.sh and bench.sh).
# Provides: start_test_servers, which exports RESILIENCE_TEST_REDIS_URL, RESILIENCE_TEST_JDBC_URL
# (MariaDB), RESILIENCE_TEST_PG_URL (PostgreSQL), the JDBC ones with _USER/_PASSWORD, and
# RESILIENCE_TEST_RABBIT_URL (RabbitMQ), and stops what it started when the calling shell exits.

_servers_dir=""
_redis_pid=""
_redis_port=""
_mariadb_pid=""
_postgres_pid=""
_rabbit_pid=""
_epmd_pid=""

_log() { echo "[test-servers] $*" >&2; }

# A port below the kernel's range for outgoing connections (whose local ports a listener cannot take
# over, even though nothing answers on them) on which no socket of this machine is bound in any state.
_free_port() {
  local low port hex
  low="$(cut -f1 /proc/sys/net/ipv4/ip_local_port_range 2>/dev/null || echo 32768)"
  [ "$low" -gt 21000 ] || low=32768
  while :; do
    port=$((20000 + RANDOM % (low - 20000)))
    printf -v hex ':%04X ' "$port"
    if ! cat /proc/net/tcp /proc/net/tcp6 2>/dev/null | awk '{print $2" "}' | grep -q -- "$hex"; then
      echo "$port"; return
    fi
  done
}

_stop_test_servers() {
  [ -n "$_redis_pid" ] && kill "$_redis_pid" 2>/dev/null || true
  [ -n "$_mariadb_pid" ] && kill "$_mariadb_pid" 2>/dev/null || true
  if [ -n "$_postgres_pid" ]; then
    # pg_ctl rather than a signal to the runuser wrapper, which would end the server by force after 2 s
    _as_postgres "$(_postgres_bin)/pg_ctl" -D "$_servers_dir/postgres/data" -m fast -w stop >/dev/null 2>&1 \
      || kill "$_postgres_pid" 2>/dev/null || true
  fi
  # RabbitMQ's start script runs the Erlang VM as its child: the whole process group goes
  [ -n "$_rabbit_pid" ] && { kill -- -"$_rabbit_pid" 2>/dev/null || kill "$_rabbit_pid" 2>/dev/null || true; }
  [ -n "$_rabbit_pid" ] && wait "$_rabbit_pid" 2>/dev/null || true
  [ -n "$_epmd_pid" ] && kill "$_epmd_pid" 2>/dev/null || true
  [ -n "$_redis_pid" ] && wait "$_redis_pid" 2>/dev/null || true
  [ -n "$_mariadb_pid" ] && wait "$_mariadb_pid" 2>/dev/null || true
  [ -n "$_postgres_pid" ] && wait "$_postgres_pid" 2>/dev/null || true
  [ -n "$_servers_dir" ] && rm -rf "$_servers_dir" || true
}

# Stops the servers this shell started and forgets them, so a later start_test_servers starts a
# fresh set and the exit trap never signals a process id the system has since reused.
stop_and_forget_test_servers() {
  _stop_test_servers
  _redis_pid="" _mariadb_pid="" _postgres_pid="" _rabbit_pid="" _epmd_pid="" _servers_dir=""
}

# Debian keeps PostgreSQL's server programs out of PATH, one folder per major version: the newest.
_postgres_bin() {
  local dir
  dir="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)"
  if [ -z "$dir" ] && command -v postgres >/dev/null 2>&1; then dir="$(dirname "$(command -v postgres)")"; fi
  echo "$dir"
}

# _install_if_missing REDIS_AND_MARIADB POSTGRES RABBIT (each 1 when needed)
_install_if_missing() {
  local missing=()
  if [ "$1" = 1 ]; then
    command -v redis-server >/dev/null 2>&1 || missing+=(redis-server)
    { command -v mariadbd >/dev/null 2>&1 || [ -x /usr/sbin/mariadbd ]; } || missing+=(mariadb-server)
  fi
  if [ "$2" = 1 ] && [ -z "$(_postgres_bin)" ]; then missing+=(postgresql); fi
  if [ "$3" = 1 ] && [ ! -x /usr/lib/rabbitmq/bin/rabbitmq-server ]; then missing+=(rabbitmq-server); fi
  # the dashboard and alert tests run Prometheus and promtool themselves (DashboardAndAlertsTest)
  command -v prometheus >/dev/null 2>&1 || missing+=(prometheus)
  if [ "${#missing[@]}" -gt 0 ]; then
    _log "installing ${missing[*]} from Debian's packages"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >/dev/null
    apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  fi
}

# PostgreSQL refuses to run as root (and CI runs as root): as root, run its programs as the postgres user.
_as_postgres() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

# _wait_for WHAT PID LOG COMMAND...: until COMMAND succeeds; fails at once when the server PID has
# ended, and on failure prints the end of the server's LOG, so a CI run says why.
_wait_for() {
  local what="$1" pid="$2" log="$3"; shift 3
  for _ in $(seq 1 300); do
    if "$@" >/dev/null 2>&1; then return 0; fi
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  _log "$what did not come up"; tail -n 20 "$log" >&2 2>/dev/null || true; return 1
}

# The Redis server with process id $1 answers on port $2 (not another one that holds the port).
_redis_answers() {
  [ "$(redis-cli -h 127.0.0.1 -p "$2" info server 2>/dev/null | tr -d '\r' | sed -n 's/^process_id://p')" = "$1" ]
}

# Starts Redis on a free port; a second and third port when the first is taken between the choice
# and the bind (the server then ends at once).
_start_redis() {
  local attempt
  for attempt in 1 2 3; do
    _redis_port="$(_free_port)"
    redis-server --bind 127.0.0.1 --port "$_redis_port" --save "" --appendonly no \
      --dir "$_servers_dir" --daemonize no --logfile "$_servers_dir/redis.log" &
    _redis_pid=$!
    if _wait_for redis "$_redis_pid" "$_servers_dir/redis.log" _redis_answers "$_redis_pid" "$_redis_port"; then
      return 0
    fi
    kill "$_redis_pid" 2>/dev/null || true; wait "$_redis_pid" 2>/dev/null || true; _redis_pid=""
    _log "redis: attempt $attempt of 3 failed"
  done
  return 1
}

_start_redis_and_mariadb() {
  local mariadb_port mariadbd
  _start_redis

  mariadbd="$(command -v mariadbd || echo /usr/sbin/mariadbd)"
  mkdir -p "$_servers_dir/mysql"
  mariadb-install-db --no-defaults --user=root --datadir="$_servers_dir/mysql" \
    --auth-root-authentication-method=normal >"$_servers_dir/mariadb-install.log" 2>&1
  mariadb_port="$(_free_port)"
  # the log is written at each commit and flushed to disk once a second: a killed server keeps every
  # commit, and neither the tests nor the benchmarks' ratios wait on this machine's disk (the data is
  # thrown away with the folder, as PostgreSQL's below)
  "$mariadbd" --no-defaults --user=root --datadir="$_servers_dir/mysql" --bind-address=127.0.0.1 \
    --port="$mariadb_port" --socket="$_servers_dir/mysql.sock" --skip-name-resolve \
    --pid-file="$_servers_dir/mariadb.pid" --log-error="$_servers_dir/mariadb.log" \
    --max-connections=500 --innodb-buffer-pool-size=256M --innodb-flush-log-at-trx-commit=2 &
  _mariadb_pid=$!

  _wait_for mariadb "$_mariadb_pid" "$_servers_dir/mariadb.log" mariadb --no-defaults -uroot --protocol=socket -S "$_servers_dir/mysql.sock" -e "SELECT 1"
  mariadb --no-defaults -uroot --protocol=socket -S "$_servers_dir/mysql.sock" -e \
    "CREATE DATABASE IF NOT EXISTS resilience; CREATE USER IF NOT EXISTS 'resilience'@'127.0.0.1' IDENTIFIED BY 'resilience'; GRANT ALL ON *.* TO 'resilience'@'127.0.0.1'; FLUSH PRIVILEGES;"

  export RESILIENCE_TEST_REDIS_URL="redis://127.0.0.1:$_redis_port"
  export RESILIENCE_TEST_JDBC_URL="jdbc:mariadb://127.0.0.1:$mariadb_port/resilience"
  export RESILIENCE_TEST_JDBC_USER="resilience"
  export RESILIENCE_TEST_JDBC_PASSWORD="resilience"
  _log "redis on $_redis_port, mariadb on $mariadb_port"
}

_start_postgres() {
  local bin dir port
  bin="$(_postgres_bin)"
  dir="$_servers_dir/postgres"
  if [ "$(id -u)" = 0 ]; then
    id -u postgres >/dev/null 2>&1 || useradd --system --no-create-home --shell /usr/sbin/nologin postgres
    chmod 711 "$_servers_dir"   # the postgres user must reach its folder inside
    mkdir -p "$dir" && chown postgres: "$dir"
  else
    mkdir -p "$dir"
  fi
  # password login over TCP (what the tests use), trust only on the server's own socket for the setup below
  _as_postgres "$bin/initdb" -D "$dir/data" -U postgres -E UTF8 --locale=C --auth-local=trust \
    --auth-host=scram-sha-256 >"$_servers_dir/postgres-initdb.log" 2>&1
  port="$(_free_port)"
  # fsync off: the data is thrown away with the folder
  _as_postgres "$bin/postgres" -D "$dir/data" -p "$port" -k "$dir" -c listen_addresses=127.0.0.1 \
    -c max_connections=300 -c fsync=off >"$_servers_dir/postgres.log" 2>&1 &
  _postgres_pid=$!

  _wait_for postgresql "$_postgres_pid" "$_servers_dir/postgres.log" "$bin/pg_isready" -q -h 127.0.0.1 -p "$port"
  _as_postgres "$bin/psql" -q -h "$dir" -p "$port" -U postgres -d postgres -v ON_ERROR_STOP=1 \
    -c "CREATE USER resilience PASSWORD 'resilience' CREATEDB" -c "CREATE DATABASE resilience OWNER resilience"

  export RESILIENCE_TEST_PG_URL="jdbc:postgresql://127.0.0.1:$port/resilience"
  export RESILIENCE_TEST_PG_USER="resilience"
  export RESILIENCE_TEST_PG_PASSWORD="resilience"
  _log "postgresql on $port"
}

_start_rabbit() {
  local port dir epmd_port
  dir="$_servers_dir/rabbitmq"
  mkdir -p "$dir"
  port="$(_free_port)"
  # an Erlang port mapper of its own on a free port, so nothing of the machine's is used or left behind
  epmd_port="$(_free_port)"
  epmd -port "$epmd_port" -address 127.0.0.1 &
  _epmd_pid=$!
  echo "[]." >"$dir/enabled_plugins"
  # setsid: the server gets a process group of its own, stopped as one (see _stop_test_servers)
  HOME="$dir" ERL_EPMD_PORT="$epmd_port" RABBITMQ_NODENAME="resilience$port@localhost" RABBITMQ_NODE_IP_ADDRESS=127.0.0.1 \
    RABBITMQ_NODE_PORT="$port" RABBITMQ_DIST_PORT="$(_free_port)" RABBITMQ_MNESIA_BASE="$dir/mnesia" \
    RABBITMQ_LOG_BASE="$dir/log" RABBITMQ_ENABLED_PLUGINS_FILE="$dir/enabled_plugins" \
    RABBITMQ_CONFIG_FILE="$dir/rabbitmq" setsid /usr/lib/rabbitmq/bin/rabbitmq-server >"$dir/out.log" 2>&1 &
  _rabbit_pid=$!
  # up when it accepts AMQP connections (bash's /dev/tcp: no client needed)
  for _ in $(seq 1 300); do
    if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then break; fi
    sleep 0.1
  done
  if ! (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
    _log "rabbitmq did not come up"; tail -n 20 "$dir/out.log" >&2; return 1
  fi
  # the default guest user may log in over loopback only, which is all the tests use
  export RESILIENCE_TEST_RABBIT_URL="amqp://guest:guest@127.0.0.1:$port"
  _log "rabbitmq on $port"
}

start_test_servers() {
  # servers the environment already provides are used as they are; only the missing ones are started
  local redis_and_mariadb=1 postgres=1 rabbit=1
  if [ -n "${RESILIENCE_TEST_REDIS_URL:-}" ] && [ -n "${RESILIENCE_TEST_JDBC_URL:-}" ]; then redis_and_mariadb=0; fi
  if [ -n "${RESILIENCE_TEST_PG_URL:-}" ]; then postgres=0; fi
  if [ -n "${RESILIENCE_TEST_RABBIT_URL:-}" ]; then rabbit=0; fi
  if [ "$redis_and_mariadb" = 0 ] && [ "$postgres" = 0 ] && [ "$rabbit" = 0 ]; then
    _log "using servers from the environment"
    return 0
  fi
  if command -v docker >/dev/null 2>&1 && docker info >/dev/null 2>&1; then
    _log "Docker is available: tests will use Testcontainers"
    return 0
  fi
  _install_if_missing "$redis_and_mariadb" "$postgres" "$rabbit"
  _servers_dir="$(mktemp -d /tmp/resilience-test-servers.XXXXXX)"
  trap _stop_test_servers EXIT

  if [ "$redis_and_mariadb" = 1 ]; then _start_redis_and_mariadb; fi
  if [ "$postgres" = 1 ]; then _start_postgres; fi
  if [ "$rabbit" = 1 ]; then _start_rabbit; fi
}
