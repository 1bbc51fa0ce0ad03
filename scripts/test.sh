#!/usr/bin/env bash
# Runs every test of the project on a fresh machine, on each supported Spring Boot line.
#
# Tests that need Redis, a MySQL-compatible server, PostgreSQL or RabbitMQ read
# RESILIENCE_TEST_REDIS_URL, RESILIENCE_TEST_JDBC_URL, RESILIENCE_TEST_PG_URL and
# RESILIENCE_TEST_RABBIT_URL. For those not set, when Docker is absent, this script installs
# redis-server, mariadb-server, postgresql and rabbitmq-server (and prometheus, whose server and
# promtool the dashboard and alert tests run themselves) from Debian's packages if missing,
# starts the first four on free loopback ports with throwaway data directories (PostgreSQL as
# the postgres user), exports the variables, and stops the servers on exit. Tests that need a server
# topology of their own (a Redis Cluster, a Redis Sentinel setup of master, replica and three
# sentinels: redis-server run with --sentinel, as Debian's redis-sentinel does) start it from the
# same redis-server and stop it themselves.
#
# Legs (docs/compatibility.md):
#   1. Spring Boot 3.5 on Java 17: builds the starter as it is published and runs every test but
#      the nemesis run, and mutation testing (PIT) of the whole engine, incrementally against the
#      analysis kept in resilience-starter-core/src/test/pit/history.txt.
#   2. Spring Boot 4.0 on Java 17: the same test sources against Boot 4 (but the deterministic
#      simulation of the engine, tag "simulation", which leg 1 runs), using the classes leg 1
#      compiled (what a Boot 4 user gets); the sample and integration tests compile on Boot 4.
#      With the nemesis run (tag "nemesis"): two sample JVMs, Redis through Sentinel, MariaDB,
#      60 s of faults from a printed seed.
#   3. Spring Boot 4.1 on Java 25: leg 2 on the newest Boot release that resolves here and the
#      newest JDK, after NullAway over the main sources (it needs that JDK).
# After the legs, the release check (scripts/release-check.sh: what a release would publish;
# RESILIENCE_TEST_RELEASE_CHECK=0 skips it), then the README's run command (scripts/run-sample.sh) must
# bring the sample up on the same checkout (RESILIENCE_TEST_SAMPLE_RUN=0 skips it).
# Extra arguments go to every Maven run. RESILIENCE_TEST_LEGS selects legs, e.g. "1 2".
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

# shellcheck source=scripts/test-servers.sh
source "$ROOT/scripts/test-servers.sh"
start_test_servers

LEGS="${RESILIENCE_TEST_LEGS:-1 2 3}"
JAVA25_HOME="${JAVA25_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}"
BOOT4_MODULES=resilience-starter-core,resilience-starter-autoconfigure,resilience-spring-boot-starter,resilience-starter-test,resilience-starter-integration-tests,resilience-starter-webflux-tests,resilience-starter-messaging-tests,resilience-starter-tracing-tests,resilience-starter-sample

# test classes are compiled per line: never reuse those of another leg
fresh_test_classes() { rm -rf "$ROOT"/resilience-starter-*/target/test-classes; }
# the Boot 4 legs run on the starter's classes as built for release (by the Boot 3 build)
release_classes() { ./mvnw -B -ntp -q -DskipTests -pl resilience-starter-core,resilience-starter-autoconfigure compile "$@"; }

# the time table printed at the end: per leg, per module (from Maven's reactor summary)
TIMES="$(mktemp /tmp/resilience-test-times.XXXXXX)"
timed() { # leg, then the Maven command; its output is shown as it comes and kept for the summary
  local leg="$1" out status=0
  shift
  out="$(mktemp /tmp/resilience-test-leg.XXXXXX)"
  "$@" 2>&1 | tee "$out" || status=$?
  sed -nE 's/^\[INFO\] Resilience Starter :: (.*[^ .]) ?\.+ SUCCESS \[ *([^]]*[^ ]) *\]$/\1|\2/p' "$out" \
    | while IFS='|' read -r module took; do printf '%s|%s|%s\n' "$leg" "$module" "$took" >>"$TIMES"; done
  rm -f "$out"
  return "$status"
}

for leg in $LEGS; do
  fresh_test_classes
  leg_started=$SECONDS
  case "$leg" in
    1) echo "== leg 1: Spring Boot 3.5, Java 17"
       # with mutation testing of the whole engine (PIT, docs/internals/testing.md): mutants whose class or tests changed
       # since the kept history are analysed again; the build fails below the threshold on mutants killed; the
       # report is left in resilience-starter-core/target/pit-reports. The nemesis run (tag
       # "nemesis", docs/internals/reliability.md) runs on leg 2
       timed 1 ./mvnw -B -ntp -DskipPitest=false -DexcludedGroups=nemesis verify "$@" ;;
    2) echo "== leg 2: Spring Boot 4.0, Java 17"
       release_classes "$@"
       # the purge of a million rows ("scale") measures the database, and the dashboard's queries against
       # Prometheus ("prometheus") the meters' names, not the Boot line: legs 1 and 3 run them. The failover
       # tests run here too: they test a server topology, but each Boot line brings its own Lettuce. So does the
       # nemesis run (docs/internals/reliability.md): 60 s of faults from a seed drawn and printed at its start
       timed 2 ./mvnw -B -ntp -Pboot4 -DexcludedGroups=scale,prometheus,simulation -Dnemesis.seconds=60 \
         -pl "$BOOT4_MODULES" verify "$@" ;;
    3) echo "== leg 3: Spring Boot 4.1, Java 25"
       if [[ ! -x "$JAVA25_HOME/bin/java" ]]; then
         echo "no JDK 25 at $JAVA25_HOME (set JAVA25_HOME); the Java 25 leg does not skip" >&2
         exit 1
       fi
       # null safety checked (docs/internals/testing.md): NullAway in JSpecify mode needs javac 22 or later, so
       # it compiles the main sources of core and autoconfigure here, into target/nullaway
       timed 3-nullaway env JAVA_HOME="$JAVA25_HOME" ./mvnw -B -ntp -Pnullaway \
         -pl resilience-starter-core,resilience-starter-autoconfigure compile "$@"
       release_classes "$@"
       # the contract kit's process kill (tag "process-kill", about 60 s a leg) and the AOT-processed sample (tag "aot",
       # with its processing, about 30 s) run on legs 1 and 2, one per Boot line
       # Boot 4.1.2's own Netty release is not served here: the newest 4.2 one that is; nor are the test
       # jars of its Kafka release (4.2.2) that spring-kafka-test's broker needs: those of 4.2.1 are
       timed 3 env JAVA_HOME="$JAVA25_HOME" ./mvnw -B -ntp -Pboot4 -DexcludedGroups=failover,simulation,nemesis,process-kill,aot -Dspring-boot.aot.skip=true \
         -Dspring-boot4.version=4.1.2 -Dnetty.version=4.2.18.Final -Dkafka.version=4.2.1 -pl "$BOOT4_MODULES" \
         verify "$@" ;;
    *) echo "unknown leg '$leg'" >&2; exit 2 ;;
  esac
  printf '%s|(the whole leg)|%d s\n' "$leg" $((SECONDS - leg_started)) >>"$TIMES"
done

# What a release would publish: the release profile's build, staged but neither signed nor uploaded, must hold
# exactly the published modules with their sources, Javadoc and POM metadata (scripts/release-check.sh)
if [[ "${RESILIENCE_TEST_RELEASE_CHECK:-1}" = 1 ]]; then
  echo "== the release check: scripts/release-check.sh"
  fresh_test_classes
  release_check_started=$SECONDS
  scripts/release-check.sh "$@"
  printf '%s|%s|%d s\n' "-" "release check" $((SECONDS - release_check_started)) >>"$TIMES"
fi

# The README's two commands in either order on one checkout: the run command after the legs above
# (which leave the sample built for the last Boot line tested) must start the sample and answer.
# bash's /dev/tcp: a fresh machine need not have curl
sample_health() {
  (exec 3<>"/dev/tcp/127.0.0.1/$1" && printf 'GET /actuator/health HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n' >&3 \
    && timeout 5 cat <&3) 2>/dev/null || true
}
if [[ "${RESILIENCE_TEST_SAMPLE_RUN:-1}" = 1 ]]; then
  echo "== the run command after the tests: scripts/run-sample.sh"
  # the Java 25 leg compiles the test classes for Java 21 (its virtual-thread tests) into the test jars:
  # the run command builds on Java 17, as on a fresh checkout
  fresh_test_classes
  sample_port="$(_free_port)"
  sample_log="$(mktemp /tmp/resilience-sample-run.XXXXXX)"
  # a session of its own, so that stopping it stops its Maven builds too
  setsid scripts/run-sample.sh --server.port="$sample_port" >"$sample_log" 2>&1 &
  sample_pid=$!
  sample_up=0
  for _ in $(seq 1 600); do
    if ! kill -0 "$sample_pid" 2>/dev/null; then break; fi
    if sample_health "$sample_port" | grep -q '"status":"UP"'; then
      sample_up=1; break
    fi
    sleep 0.5
  done
  kill -- -"$sample_pid" 2>/dev/null || kill "$sample_pid" 2>/dev/null || true
  wait "$sample_pid" 2>/dev/null || true
  if [[ "$sample_up" != 1 ]]; then
    echo "scripts/run-sample.sh did not bring the sample up after the tests; its output:" >&2
    tail -n 60 "$sample_log" >&2
    exit 1
  fi
  echo "sample answered UP on port $sample_port"
  rm -f "$sample_log"
fi

echo "== time per leg and module"
awk -F'|' '{ printf "leg %-2s %-40s %s\n", $1, $2, $3 }' "$TIMES"
echo "total: $SECONDS s"
rm -f "$TIMES"
