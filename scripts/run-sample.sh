#!/usr/bin/env bash
# Builds the starter and runs the sample on its embedded defaults (no external server), with its
# demo profile: the switches scripts/demo.sh turns (the inventory's faults, header-triggered fault
# injection), from this machine only. DEMO=0 runs it as an application copied from it would run.
# Extra arguments go to the application, e.g. scripts/run-sample.sh --server.port=9090
#
# The Spring Boot line: 3 (default, Boot 3.5) or 4 (Boot 4.0), e.g. BOOT_LINE=4 scripts/run-sample.sh
# The starter is one artifact for both lines; only the sample's own build changes.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
BOOT_LINE="${BOOT_LINE:-3}"
case "$BOOT_LINE" in
  3) PROFILE="" ;;
  4) PROFILE="-Pboot4" ;;
  *) echo "BOOT_LINE must be 3 or 4, not '$BOOT_LINE'" >&2; exit 2 ;;
esac
# the starter as published (built on Boot 3 for both lines), then the sample packaged afresh for the
# chosen line: a test run leaves the sample built for whichever line it tested last in target/
./mvnw -B -q -ntp -DskipTests install -pl '!resilience-starter-sample'
# shellcheck disable=SC2086
./mvnw -B -q -ntp -DskipTests -Dspring-boot.aot.skip=true $PROFILE -pl resilience-starter-sample clean package
DEMO_PROFILE=()
[[ "${DEMO:-1}" = 1 ]] && DEMO_PROFILE=(--spring.profiles.include=demo)
exec java -jar resilience-starter-sample/target/resilience-starter-sample-0.1.0-SNAPSHOT.jar ${DEMO_PROFILE[@]+"${DEMO_PROFILE[@]}"} "$@"
