#!/usr/bin/env bash
# Runs every test of the project on a fresh machine.
#
# Tests that need Redis or a MySQL-compatible server read RESILIENCE_TEST_REDIS_URL and
# RESILIENCE_TEST_JDBC_URL. When they are not set and Docker is absent, this script installs
# redis-server and mariadb-server from Debian's packages if missing, starts both on free loopback
# ports with throwaway data directories, exports the variables, and stops the servers on exit.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

# shellcheck source=scripts/test-servers.sh
source "$ROOT/scripts/test-servers.sh"
start_test_servers

./mvnw -B -ntp verify "$@"
