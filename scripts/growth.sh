#!/usr/bin/env bash
# How cost grows (issue 18): startup time and heap against the number of annotated methods, the
# JDBC claim's latency against the live rows on MariaDB, and Redis memory per record against a raw
# SET. Starts the Redis and MariaDB servers the way the tests do (or uses those in the environment),
# builds the benchmarks module without installing anything, runs the three measurements and writes
# docs/internals/bench/growth.json and docs/internals/bench/growth.md (the tables with the growth per step).
#
# Sizes come from the environment (defaults in brackets):
#   GROWTH_PARTS     which measurements                  ["startup claim redis held"]
#   GROWTH_METHODS   annotated methods per startup       ["1 100 10000"]
#   GROWTH_REPEATS   fresh JVMs per method count and mode [3]
#   GROWTH_ROWS      live rows per claim step            [1000,1000000,10000000]
#   GROWTH_CLAIMS    measured claims per step            [20000]
#   GROWTH_THREADS   claiming threads                    [4]
#   GROWTH_FILL_CAP  seconds of filling at most, in all  [900]
#   GROWTH_TABLE     the table of its own it fills and drops [growth_idempotency]
#   GROWTH_RECORDS   Redis records per body size         [1000]
#   GROWTH_PAYLOADS  Redis body sizes in bytes           [50,200,1000]
#   GROWTH_HELD      keys held in flight per step        [1,100,10000]
#   GROWTH_HELD_WINDOW seconds measured per held step    [30]
#   MVN_ARGS         extra Maven arguments, e.g. -o      []
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
PARTS="${GROWTH_PARTS:-startup claim redis held}"
METHODS="${GROWTH_METHODS:-1 100 10000}"
REPEATS="${GROWTH_REPEATS:-3}"
ROWS="${GROWTH_ROWS:-1000,1000000,10000000}"
CLAIMS="${GROWTH_CLAIMS:-20000}"
THREADS="${GROWTH_THREADS:-4}"
FILL_CAP="${GROWTH_FILL_CAP:-900}"
TABLE="${GROWTH_TABLE:-growth_idempotency}"
RECORDS="${GROWTH_RECORDS:-1000}"
PAYLOADS="${GROWTH_PAYLOADS:-50,200,1000}"
HELD="${GROWTH_HELD:-1,100,10000}"
HELD_WINDOW="${GROWTH_HELD_WINDOW:-30}"

# shellcheck source=scripts/test-servers.sh
source "$ROOT/scripts/test-servers.sh"
start_test_servers

WORK="$(mktemp -d /tmp/resilience-growth.XXXXXX)"
cleanup() {
  # the claim measurement drops its table itself; this covers an interrupted run
  if [[ " $PARTS " == *" claim "* ]] && [[ "${RESILIENCE_TEST_JDBC_URL:-}" =~ ^jdbc:mariadb://([^:/]+):([0-9]+)/([^?]+) ]]; then
    MYSQL_PWD="${RESILIENCE_TEST_JDBC_PASSWORD:-}" mariadb --no-defaults -h "${BASH_REMATCH[1]}" -P "${BASH_REMATCH[2]}" \
      -u "${RESILIENCE_TEST_JDBC_USER:-}" "${BASH_REMATCH[3]}" -e "DROP TABLE IF EXISTS $TABLE" 2>/dev/null || true
  fi
  rm -rf "$WORK"
  # start_test_servers' own EXIT trap is replaced by this one: stop what it started (nothing when reused)
  _stop_test_servers
}
trap cleanup EXIT

# package, not install: the local repository stays as it is for everyone else on the machine
# shellcheck disable=SC2086
./mvnw -B -q -ntp ${MVN_ARGS:-} -pl resilience-starter-benchmarks -am package dependency:build-classpath \
  -DskipTests -Dmdep.outputFile=target/classpath.txt
CP="resilience-starter-benchmarks/target/classes:$(cat resilience-starter-benchmarks/target/classpath.txt)"
# outside a Spring application Logback would log the drivers at DEBUG
printf '<configuration><appender name="err" class="ch.qos.logback.core.ConsoleAppender"><target>System.err</target>
<encoder><pattern>%%d{HH:mm:ss} %%-5level %%logger{20} %%msg%%n</pattern></encoder></appender>
<root level="WARN"><appender-ref ref="err"/></root></configuration>\n' >"$WORK/logback.xml"
LOG="-Dlogback.configurationFile=$WORK/logback.xml"
MAIN=io.github.resiliencestarter.benchmarks.growth

if [[ " $PARTS " == *" startup "* ]]; then
  for n in $METHODS; do
    for mode in plain annotated; do
      mkdir -p "$WORK/gen-$n-$mode"
      java "$LOG" -cp "$CP" "$MAIN.StartupGrowth" generate "$n" "$mode" "$WORK/gen-$n-$mode"
    done
  done
  # modes alternate within each round so drift on the shared machine hits both alike
  for round in $(seq 1 "$REPEATS"); do
    for n in $METHODS; do
      for mode in plain annotated; do
        echo "[growth] startup round $round, $n methods, $mode" >&2
        # one fresh JVM per start; serial GC so the heap after System.gc() is a full, compacting collection
        java -XX:+UseSerialGC -Xmx1g -cp "$WORK/gen-$n-$mode/classes:$CP" "$MAIN.StartupGrowth" run "$n" "$mode" \
          "$WORK/startup.jsonl" >/dev/null
      done
    done
  done
fi

if [[ " $PARTS " == *" claim "* ]]; then
  echo "[growth] claim latency on MariaDB, rows $ROWS (table $TABLE, dropped at the end)" >&2
  java "$LOG" -Xmx1g -cp "$CP" "$MAIN.ClaimGrowth" "$WORK/claim.json" "$TABLE" "$ROWS" "$CLAIMS" "$THREADS" \
    "$FILL_CAP"
fi

if [[ " $PARTS " == *" redis "* ]]; then
  echo "[growth] Redis memory per record, bodies $PAYLOADS bytes" >&2
  java "$LOG" -cp "$CP" "$MAIN.RedisMemoryGrowth" "$WORK/redis.json" "$RECORDS" "$PAYLOADS"
fi

if [[ " $PARTS " == *" held "* ]]; then
  echo "[growth] lease keeping with $HELD keys held on Redis, ${HELD_WINDOW} s each" >&2
  java "$LOG" -cp "$CP" "$MAIN.HeldKeysGrowth" "$WORK/held.json" "$HELD" "$HELD_WINDOW"
fi

mkdir -p docs/bench
python3 scripts/growth_report.py "$WORK" docs/internals/bench/growth.json docs/internals/bench/growth.md
echo "results: docs/internals/bench/growth.json, tables: docs/internals/bench/growth.md"
