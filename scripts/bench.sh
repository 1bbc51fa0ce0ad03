#!/usr/bin/env bash
# Builds and runs the JMH benchmarks (2-core budget: one fork, short iterations; about 10 minutes),
# starting the Redis and MariaDB servers the store benchmarks need the same way the tests do.
# Writes docs/bench/results.json and regenerates the table in docs/benchmarks.md.
# Extra arguments go to JMH, e.g. scripts/bench.sh AnnotationBenchmark
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
# shellcheck source=scripts/test-servers.sh
source "$ROOT/scripts/test-servers.sh"
start_test_servers

./mvnw -B -q -ntp -DskipTests install
./mvnw -B -q -ntp -pl resilience-starter-benchmarks dependency:build-classpath \
  -Dmdep.outputFile=target/classpath.txt
CP="resilience-starter-benchmarks/target/classes:$(cat resilience-starter-benchmarks/target/classpath.txt)"

mkdir -p docs/bench
java -cp "$CP" org.openjdk.jmh.Main -f 1 -wi 3 -w 1s -i 5 -r 1s -prof gc \
  -rf json -rff docs/bench/results.json "$@"
python3 scripts/bench_report.py docs/bench/results.json docs/benchmarks.md
echo "results: docs/bench/results.json, table: docs/benchmarks.md"
