#!/usr/bin/env bash
# Builds the starter and runs the sample on its embedded defaults (no external server).
# Extra arguments go to the application, e.g. scripts/run-sample.sh --server.port=9090
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
./mvnw -B -q -ntp -DskipTests install
exec java -jar resilience-starter-sample/target/resilience-starter-sample-0.1.0-SNAPSHOT.jar "$@"
