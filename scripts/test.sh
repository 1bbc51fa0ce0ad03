#!/usr/bin/env bash
# Runs every test of the project on a fresh machine, on each supported Spring Boot line.
#
# Tests that need Redis, a MySQL-compatible server or PostgreSQL read RESILIENCE_TEST_REDIS_URL,
# RESILIENCE_TEST_JDBC_URL and RESILIENCE_TEST_PG_URL. For those not set, when Docker is absent,
# this script installs redis-server, mariadb-server and postgresql from Debian's packages if
# missing, starts them on free loopback ports with throwaway data directories (PostgreSQL as the
# postgres user), exports the variables, and stops the servers on exit. Tests that need a server
# topology of their own (a Redis Cluster, a Redis Sentinel setup of master, replica and three
# sentinels: redis-server run with --sentinel, as Debian's redis-sentinel does) start it from the
# same redis-server and stop it themselves.
#
# Legs (docs/compatibility.md):
#   1. Spring Boot 3.5 on Java 17: builds the starter as it is published and runs every test.
#   2. Spring Boot 4.0 on Java 17: the same test sources against Boot 4, using the classes leg 1
#      compiled (what a Boot 4 user gets); the sample and integration tests compile on Boot 4.
#   3. Spring Boot 4.0 on Java 25: leg 2 again on the newest JDK.
#   4. Spring Boot 4.1 on Java 17: leg 2 on the newest Boot release that resolves here.
# Extra arguments go to every Maven run. RESILIENCE_TEST_LEGS selects legs, e.g. "1 2".
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

# shellcheck source=scripts/test-servers.sh
source "$ROOT/scripts/test-servers.sh"
start_test_servers

LEGS="${RESILIENCE_TEST_LEGS:-1 2 3 4}"
JAVA25_HOME="${JAVA25_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}"
BOOT4_MODULES=resilience-starter-core,resilience-starter-autoconfigure,resilience-starter-integration-tests,resilience-starter-webflux-tests,resilience-starter-sample

# test classes are compiled per line: never reuse those of another leg
fresh_test_classes() { rm -rf "$ROOT"/resilience-starter-*/target/test-classes; }
# the Boot 4 legs run on the starter's classes as built for release (by the Boot 3 build)
release_classes() { ./mvnw -B -ntp -q -DskipTests -pl resilience-starter-core,resilience-starter-autoconfigure compile "$@"; }

for leg in $LEGS; do
  fresh_test_classes
  case "$leg" in
    1) echo "== leg 1: Spring Boot 3.5, Java 17"
       ./mvnw -B -ntp verify "$@" ;;
    2) echo "== leg 2: Spring Boot 4.0, Java 17"
       release_classes "$@"
       ./mvnw -B -ntp -Pboot4 -DexcludedGroups=failover -pl "$BOOT4_MODULES" verify "$@" ;;
    3) echo "== leg 3: Spring Boot 4.0, Java 25"
       if [[ ! -x "$JAVA25_HOME/bin/java" ]]; then
         echo "no JDK 25 at $JAVA25_HOME (set JAVA25_HOME); the Java 25 leg does not skip" >&2
         exit 1
       fi
       release_classes "$@"
       JAVA_HOME="$JAVA25_HOME" ./mvnw -B -ntp -Pboot4 -DexcludedGroups=failover -pl "$BOOT4_MODULES" verify "$@" ;;
    4) echo "== leg 4: Spring Boot 4.1, Java 17"
       release_classes "$@"
       # Boot 4.1.2's own Netty release is not served here: the newest 4.2 one that is
       ./mvnw -B -ntp -Pboot4 -DexcludedGroups=failover -Dspring-boot4.version=4.1.2 -Dnetty.version=4.2.18.Final \
         -pl "$BOOT4_MODULES" verify "$@" ;;
    *) echo "unknown leg '$leg'" >&2; exit 2 ;;
  esac
done
