#!/usr/bin/env bash
# JFR profiles (allocation and CPU) of each benchmarked path, summarised into docs/internals/bench/profiles/.
# Run after scripts/bench.sh built the benchmarks (it reuses their class path); starts the test
# servers for the store paths. Usage: scripts/profile.sh [JMH regex], default: every issue 18 path.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
# shellcheck source=scripts/test-servers.sh
source "$ROOT/scripts/test-servers.sh"
start_test_servers
CP="resilience-starter-benchmarks/target/classes:$(cat resilience-starter-benchmarks/target/classpath.txt)"
PATTERN="${1:-AnnotationBenchmark.(floorCall|retryOurs|timeoutOursInterrupt|timeoutOursOffload|allThreeOursFirst|allThreeOursReplay)|StoreBenchmark.(firstExecutionOurs|replayOurs)}"
OUT="$(mktemp -d /tmp/resilience-profiles.XXXXXX)"
java -cp "$CP" org.openjdk.jmh.Main "$PATTERN" -f 1 -wi 2 -w 1s -i 2 -r 3s \
  -prof "jfr:dir=$OUT;configName=profile" >/dev/null
mkdir -p docs/internals/bench/profiles
find "$OUT" -name profile.jfr | sort | while read -r recording; do
  name="$(basename "$(dirname "$recording")" | sed 's/^io\.github\.resiliencestarter\.benchmarks\.//')"
  python3 scripts/jfr_summary.py "$recording" 30 > "docs/internals/bench/profiles/$name.txt"
  echo "profile: docs/internals/bench/profiles/$name.txt"
done
rm -rf "$OUT"
