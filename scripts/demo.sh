#!/usr/bin/env bash
# Walks through what the starter does, against a running sample in its demo profile, as
# scripts/run-sample.sh starts it
# Usage: scripts/demo.sh [base-url]   (default http://127.0.0.1:8080). Needs bash, curl and jq
# (Linux or macOS: bash 3.2 and BSD date do).
set -euo pipefail

BASE="${1:-http://127.0.0.1:8080}"
command -v jq >/dev/null || { echo "demo.sh needs jq (apt-get install jq)"; exit 1; }
RUN="$(date +%s)"
say() { printf '\n\033[1m== %s\033[0m\n' "$*"; }
why() { printf '   -> %s\n' "$*"; }
order() { # orderNo amount [extra curl args...]: prints the status; the time taken goes to /tmp/demo-ms
  local no="$1" amount="$2" written; shift 2
  written=$(curl -s -D /tmp/demo-headers -o /tmp/demo-body -w '%{http_code} %{time_total}' -X POST \
    "$BASE/order/create" -H 'Content-Type: application/json' "$@" \
    -d "{\"orderNo\":\"$no\",\"userId\":7,\"productId\":1,\"quantity\":1,\"amount\":$amount}")
  # curl's own clock, in seconds with a fraction: portable where date +%s%N is not (macOS)
  awk -v s="${written#* }" 'BEGIN { printf "%d", s * 1000 }' > /tmp/demo-ms
  echo "${written%% *}"
}
took_ms() { cat /tmp/demo-ms; }
header() { grep -i "^$1:" /tmp/demo-headers | tr -d '\r' | cut -d' ' -f2- || true; }
faults() { curl -s -X PUT "$BASE/inventory/faults" -H 'Content-Type: application/json' -d "$1" >/dev/null; }
stock() { curl -s "$BASE/inventory/stock/1" | jq -r .available; }

if [ "$(curl -s -o /dev/null -w '%{http_code}' -X PUT "$BASE/inventory/faults" -H 'Content-Type: application/json' \
    -d '{"latencyMs":0,"failureRate":0,"failureStatus":503,"failNext":0}')" != 200 ]; then
  echo "The sample at $BASE does not let this demo set its inventory's faults: start it with its demo profile,"
  echo "  scripts/run-sample.sh (not DEMO=0), or --spring.profiles.include=demo"
  exit 1
fi

say "1. First create"
status=$(order "DEMO-$RUN-1" 12.50)
echo "HTTP $status  $(cat /tmp/demo-body)"
first=$(cat /tmp/demo-body)
why "the key (the order number) was claimed, the order created, the result stored"

say "2. The same request again"
status=$(order "DEMO-$RUN-1" 12.50)
echo "HTTP $status  Idempotent-Replayed: $(header Idempotent-Replayed)  $(cat /tmp/demo-body)"
[ "$(cat /tmp/demo-body)" = "$first" ] && why "same body as the first response: replayed, not executed again"

say "3. Same key, another amount"
status=$(order "DEMO-$RUN-1" 99.00)
echo "HTTP $status  $(jq -c '{type, detail, traceId}' /tmp/demo-body)"
why "a reused key with a different payload is refused (422); nothing runs"

say "4. 20 concurrent duplicates"
before=$(stock)
for i in $(seq 1 20); do
  curl -s -o /dev/null -X POST "$BASE/order/create" -H 'Content-Type: application/json' \
    -d "{\"orderNo\":\"DEMO-$RUN-C\",\"userId\":7,\"productId\":1,\"quantity\":1,\"amount\":1}" &
done
wait
echo "stock before $before, after $(stock); order: $(curl -s "$BASE/order/DEMO-$RUN-C" | jq -c '{orderNo,status}')"
why "one atomic claim wins; the other 19 waited for it and replayed its result: stock moved by exactly 1"

say "5. Slow inventory: 5 s latency against a 2 s order deadline"
faults '{"latencyMs":5000,"failureRate":0,"failureStatus":503,"failNext":0}'
status=$(order "DEMO-$RUN-T" 3.00)
echo "HTTP $status after $(took_ms) ms  $(jq -c '{type, traceId}' /tmp/demo-body)"
why "the deadline interrupted the call: 504 problem with the trace id; the key was released"
faults '{"latencyMs":0,"failureRate":0,"failureStatus":503,"failNext":0}'
status=$(order "DEMO-$RUN-T" 3.00)
echo "retry with the same key: HTTP $status  $(jq -c '{orderNo,status}' /tmp/demo-body)"
why "the client's retry with the same key completes the order, once"

say "6. Flaky inventory: the next 2 reservations fail with 503"
faults '{"latencyMs":0,"failureRate":0,"failureStatus":503,"failNext":2}'
status=$(order "DEMO-$RUN-F" 4.00 -H 'X-Timeout-Budget-Ms: 1500')
echo "HTTP $status  $(jq -c '{orderNo,status}' /tmp/demo-body)"
seen=$(curl -s "$BASE/inventory/faults")
echo "the inventory's last request was attempt $(echo "$seen" | jq -r .lastAttempt) (X-Retry-Attempt)"
why "the inventory call was retried with back-off and jitter; the same derived Idempotency-Key each time"
echo "budget the inventory saw: $(echo "$seen" | jq -r .lastBudgetMs) ms (we sent 1500)"
why "the budget shrinks on every hop: the inventory got what was left minus a safety margin"

say "7. Paying twice"
curl -s -X POST "$BASE/order/DEMO-$RUN-1/pay" | jq -c '{orderNo,status,version}'
curl -s -X POST "$BASE/order/DEMO-$RUN-1/pay" | jq -c '{orderNo,status,version}'
why "PENDING -> PAID is a conditional update: the repeat changes nothing (version stays 1)"

say "8. Bad input"
curl -s -X POST "$BASE/order/create" -H 'Content-Type: application/json' -d '{"orderNo":"","quantity":0}' \
  | jq -c '{status, title}'
why "validation failures are 400 problems; nothing is stored"

say "9. A reactive endpoint: a Mono under @Timeout(\"1s\")"
curl -s "$BASE/inventory/stock/1/reactive" | jq -c '{productId,available}'
faults '{"latencyMs":3000,"failureRate":0,"failureStatus":503,"failNext":0}'
status=$(curl -s -o /tmp/demo-body -w '%{http_code}' "$BASE/inventory/stock/1/reactive")
echo "HTTP $status  $(jq -c '{status,title}' /tmp/demo-body)"
why "the deadline bounds the Mono's completion, not the call that built it: at 1 s its subscription is disposed"

faults '{"latencyMs":0,"failureRate":0,"failureStatus":503,"failNext":0}'
say "10. Inventory down: the circuit breaker opens, refuses at once, and lets traffic back gradually"
breaker() { curl -s "$BASE/actuator/resilience" | jq -c '.circuitBreakers.inventory | {state, failureRate, untilProbeMs, admittedShare}'; }
faults '{"latencyMs":0,"failureRate":1.0,"failureStatus":503,"failNext":0}'
for i in $(seq 1 8); do
  status=$(order "DEMO-$RUN-B$i" 1.00)
  printf 'order %d: HTTP %s in %4d ms  %s\n' "$i" "$status" "$(took_ms)" \
    "$(jq -r '.type // .title // empty' /tmp/demo-body 2>/dev/null | sed 's/.*://')  Retry-After: $(header Retry-After)"
done
echo "breaker: $(breaker)"
why "each attempt of the inventory call passed the breaker; at 50 % failures it opened: orders are refused in"
why "a few ms with 503 circuit-open and Retry-After (their keys released), no retry sleeps against it"
faults '{"latencyMs":0,"failureRate":0,"failureStatus":503,"failNext":0}'
wait_s=$(( ($(curl -s "$BASE/actuator/resilience" | jq -r '.circuitBreakers.inventory.untilProbeMs') + 999) / 1000 ))
echo "inventory repaired; waiting ${wait_s} s for the probe time"
sleep "$wait_s"
for i in $(seq 1 6); do
  status=$(order "DEMO-$RUN-R$i" 1.00)
  echo "order R$i: HTTP $status  breaker: $(breaker)"
done
why "two probes went through and closed the circuit into its ramp: admittedShare rises from 0.1 to 1 over 10 s,"
why "calls above it are refused like an open circuit, so the repaired inventory is not hit by everything at once"
sleep 10
echo "after the ramp: $(breaker)"

say "11. Rehearsal: 503s injected into 3 of every 10 inventory calls (resilience.chaos, docs/chaos.md)"
metric() { # name tag=value...: the metric's COUNT (a timer) or its count (a counter)
  local name="$1" query=""; shift
  for tag in "$@"; do query="$query&tag=$tag"; done
  curl -s "$BASE/actuator/metrics/$name?${query#&}" | jq -r '[.measurements[]? | select(.statistic == "COUNT")
    | .value] | add // 0'
}
retried_before=$(metric resilience.retry.calls name:InventoryClient.reserve outcome:success_with_retry)
: > /tmp/demo-statuses
for i in $(seq 1 30); do
  order "DEMO-$RUN-X$i" 1.00 -H 'X-Resilience-Chaos: inventory-503' >> /tmp/demo-statuses
done
sort /tmp/demo-statuses | uniq -c | while read -r count status; do echo "HTTP $status: $count orders"; done
echo "faults injected: $(metric resilience.chaos.injected fault:inventory-503)"
echo "orders whose inventory call succeeded after a retry: $(( $(metric resilience.retry.calls name:InventoryClient.reserve \
  outcome:success_with_retry | cut -d. -f1) - ${retried_before%.*} ))"
echo "breaker: $(breaker)"
why "only requests carrying X-Resilience-Chaos get faults (the demo profile allows anonymous callers; a secured"
why "app lists principals); each injection is a WARN line with the trace id. The share is spread evenly, never"
why "two calls in a row: every injected 503 was absorbed by the retry that followed it, so all 30 orders were"
why "created, once each, and the breaker saw about 1 failure in 4 attempts, under its 50 % threshold"

say "12. A message consumer: loyalty points from an order-created event on RabbitMQ (docs/messaging.md)"
if [ "$(curl -s -o /dev/null -w '%{http_code}' "$BASE/loyalty/none")" != 200 ]; then
  why "the sample runs without a broker: start it with SPRING_PROFILES_ACTIVE=rabbit (and RABBIT_URL, default"
  why "amqp://guest:guest@127.0.0.1:5672) to see this step"
else
  order "DEMO-$RUN-M" 25.00 >/dev/null
  sleep 1
  echo "points after the order: $(curl -s "$BASE/loyalty/DEMO-$RUN-M")"
  curl -s -X POST "$BASE/loyalty/DEMO-$RUN-M/resend" >/dev/null
  curl -s -X POST "$BASE/loyalty/DEMO-$RUN-M/resend" >/dev/null
  sleep 1
  echo "after the event was sent twice more: $(curl -s "$BASE/loyalty/DEMO-$RUN-M")"
  echo "deliveries acknowledged as replays: $(metric resilience.idempotent.calls name:LOYALTY_POINTS outcome:replayed)"
  why "the listener's @Idempotent(key = \"#orderNo\") claimed the order once; the copies were acknowledged"
  why "without running, so the points table, which has no unique key, still holds one row"
fi

say "Done. Logs carry the trace id of each request in [brackets]."
