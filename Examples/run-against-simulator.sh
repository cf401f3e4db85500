#!/usr/bin/env bash
# run-against-simulator.sh: `make examples` after the build. Checks that README.md's quick start is the
# program Examples/Sources/readme-quickstart compiles, then runs every example against the gateway
# simulator and checks what it prints. One `ok - ` or `not ok - ` line per check; exits 1 if any failed.
# The simulators are stopped on every path.
#
#   Examples/run-against-simulator.sh                      # the checks
#   Examples/run-against-simulator.sh --update-quickstart  # copy README.md's block into the example
#
# SIMULATOR (default .build/debug/openclaw-gateway-sim) and EXAMPLES_BIN (default: the Examples
# package's debug bin directory) say where the built programs are.
set -uo pipefail
examples=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$examples")
quickstart=$examples/Sources/readme-quickstart/main.swift

# The Swift block after `<!-- quickstart` in README.md.
readme_block() {
    awk '/^<!-- quickstart/ { found = 1; next }
         found == 1 && /^```swift$/ { found = 2; next }
         found == 2 && /^```$/ { exit }
         found == 2 { print }' "$root/README.md"
}

if [ "${1:-}" = --update-quickstart ]; then
    readme_block >"$quickstart.tmp" && mv "$quickstart.tmp" "$quickstart"
    echo "wrote $quickstart"
    exit 0
fi

failures=0
ok() { echo "ok - $1"; }
not_ok() { echo "not ok - $1"; shift; [ $# -gt 0 ] && printf '    %s\n' "$@"; failures=$((failures + 1)); }

block=$(readme_block)
if [ -z "$block" ]; then
    not_ok "README.md has a quick start block (<!-- quickstart --> before a swift fence)"
elif [ "$block" = "$(cat "$quickstart")" ]; then
    ok "README.md's quick start is Examples/Sources/readme-quickstart/main.swift"
else
    not_ok "README.md's quick start is Examples/Sources/readme-quickstart/main.swift" \
        "they differ; after editing README.md run: Examples/run-against-simulator.sh --update-quickstart"
    diff -u "$quickstart" <(echo "$block") | sed 's/^/    /'
fi

simulator=${SIMULATOR:-$root/.build/debug/openclaw-gateway-sim}
bin=${EXAMPLES_BIN:-$examples/.build/debug}
for program in "$simulator" "$bin/cron-summary" "$bin/stdin-bot" "$bin/swift-watch" "$bin/readme-quickstart" "$bin/ask"; do
    [ -x "$program" ] || { echo "run-against-simulator: $program is not built (make examples builds it)" >&2; exit 1; }
done

work=$(mktemp -d /tmp/openclaw-examples.XXXXXX)
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null; done
    for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null; done
    rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# start NAME FLAGS...: starts a simulator on a free port; its URL in $url.
start() {
    local name=$1; shift
    "$simulator" --port 0 "$@" >"$work/$name.out" 2>"$work/$name.err" &
    pids+=($!)
    url=""
    for _ in $(seq 200); do
        url=$(sed -n 's/^listening on //p' "$work/$name.out" | head -n 1)
        [ -n "$url" ] && return 0
        sleep 0.05
    done
    echo "run-against-simulator: the simulator did not start:" >&2
    cat "$work/$name.err" >&2
    exit 1
}

# A throwaway home and state directory: official() reads and writes nothing of this user's.
export HOME=$work/home OPENCLAW_STATE_DIR=$work/state
mkdir -p "$HOME"
unset OPENCLAW_CONFIG_PATH OPENCLAW_PROFILE OPENCLAW_HOME OPENCLAW_GATEWAY_PASSWORD
start echo --token example-token
export OPENCLAW_GATEWAY_URL=$url OPENCLAW_GATEWAY_TOKEN=example-token
limit=30

out=$(timeout $limit "$bin/cron-summary" "summarise" "the day" 2>"$work/err")
status=$?
if [ $status -eq 0 ] && [ "$out" = "summarise the day" ]; then ok "cron-summary prints the final reply"
else not_ok "cron-summary prints the final reply" "exit $status, stdout: $out" "stderr: $(cat "$work/err")"; fi

out=$(OPENCLAW_GATEWAY_TOKEN=wrong-token timeout $limit "$bin/cron-summary" "hello" 2>"$work/err")
status=$?
err=$(cat "$work/err")
if [ $status -eq 1 ] && [ -z "$out" ] && [[ $err == "cron-summary: authentication failed"* ]] && [[ $err != *wrong-token* ]]; then
    ok "cron-summary with a refused token exits 1, the reason on stderr, no secret"
else not_ok "cron-summary with a refused token exits 1, the reason on stderr, no secret" "exit $status, stderr: $err"; fi

out=$(timeout $limit "$bin/cron-summary" 2>"$work/err")
status=$?
if [ $status -eq 2 ] && grep -q '^cron-summary: usage:' "$work/err"; then ok "cron-summary without a message exits 2"
else not_ok "cron-summary without a message exits 2" "exit $status, stderr: $(cat "$work/err")"; fi

out=$(printf 'first line\nsecond line here\n' | timeout $limit "$bin/stdin-bot" 2>"$work/err")
status=$?
if [ $status -eq 0 ] && [ "$out" = $'first line\nsecond line here' ]; then ok "stdin-bot streams a reply per line and ends at end of input"
else not_ok "stdin-bot streams a reply per line and ends at end of input" "exit $status, stdout: $out" "stderr: $(cat "$work/err")"; fi

out=$(echo "hello" | OPENCLAW_GATEWAY_TOKEN=wrong-token timeout $limit "$bin/stdin-bot" 2>"$work/err")
status=$?
err=$(cat "$work/err")
if [ $status -eq 1 ] && [[ $err == "stdin-bot: authentication failed"* ]]; then ok "stdin-bot with a refused token exits 1 with run()'s reason"
else not_ok "stdin-bot with a refused token exits 1 with run()'s reason" "exit $status, stderr: $err"; fi

out=$(timeout $limit "$bin/readme-quickstart" 2>"$work/err")
status=$?
if [ $status -eq 0 ] && [ "$out" = "What is on my calendar today?" ]; then ok "README.md's quick start streams the reply"
else not_ok "README.md's quick start streams the reply" "exit $status, stdout: $out" "stderr: $(cat "$work/err")"; fi

# ask, interrupted mid-reply: the abort reaches the gateway, exit 130, the reply so far on stdout.
start slow --token example-token --reply lorem:3000 --delta-ms 20 --log "$work/slow.log"
OPENCLAW_GATEWAY_URL=$url "$bin/ask" "tell me a long story" >"$work/ask.out" 2>"$work/ask.err" &
ask=$!
for _ in $(seq 600); do [ -s "$work/ask.out" ] && break; sleep 0.05; done
kill -INT $ask
status=0
wait $ask || status=$?
# What the client sent: the log's "in" lines (the hello it received lists chat.abort among the methods).
client_sent_abort() { grep '^{"dir":"in"' "$1" | grep -q '"method":"chat.abort"'; }
if [ $status -eq 130 ] && [ -s "$work/ask.out" ] && client_sent_abort "$work/slow.log" \
    && grep -q '^ask: interrupted: the run was aborted$' "$work/ask.err"; then
    ok "ask: Ctrl-C mid-reply aborts the run on the gateway and exits 130"
else not_ok "ask: Ctrl-C mid-reply aborts the run on the gateway and exits 130" "exit $status" "stderr: $(cat "$work/ask.err")"; fi

# ask | a reader that never reads: a FIFO filled to the brim before ask writes, held open by a process
# that never reads it. Ctrl-C: the abort reaches the gateway and ask exits 130 without the reader.
start stalled --token example-token --reply lorem:3000 --delta-ms 20 --log "$work/stalled.log"
mkfifo "$work/stalled.fifo"
sleep 300 <"$work/stalled.fifo" &
reader=$!
pids+=($reader)
head -c 65536 /dev/zero >"$work/stalled.fifo"
OPENCLAW_GATEWAY_URL=$url "$bin/ask" "tell me a long story" >"$work/stalled.fifo" 2>"$work/stalled.err" &
ask=$!
pids+=($ask)
for _ in $(seq 600); do grep -q '"state":"delta"' "$work/stalled.log" 2>/dev/null && break; sleep 0.05; done
kill -INT $ask
for _ in $(seq 200); do kill -0 $ask 2>/dev/null || break; sleep 0.05; done
status=0
if kill -0 $ask 2>/dev/null; then status=running; else wait $ask || status=$?; fi
if [ "$status" = 130 ] && client_sent_abort "$work/stalled.log"; then
    ok "ask | a reader that never reads: Ctrl-C aborts the run and exits 130"
else not_ok "ask | a reader that never reads: Ctrl-C aborts the run and exits 130" "exit $status" "stderr: $(cat "$work/stalled.err")"; fi

out=$(timeout $limit "$bin/ask" 2>"$work/err")
status=$?
if [ $status -eq 2 ] && grep -q '^ask: usage:' "$work/err"; then ok "ask without a question exits 2"
else not_ok "ask without a question exits 2" "exit $status, stderr: $(cat "$work/err")"; fi

start ticks --token example-token --tick-ms 100
out=$(OPENCLAW_GATEWAY_URL=$url timeout $limit "$bin/swift-watch" --count 2 2>"$work/err")
status=$?
# Two lines, each one event as JSON; at 100 ms ticks, one of them at least is a tick (the other may be
# the presence snapshot a connect brings).
lines_ok() {
    [ "$(printf '%s\n' "$1" | wc -l)" -eq 2 ] || return 1
    if command -v jq >/dev/null; then
        printf '%s\n' "$1" | jq -e -s 'length == 2 and all(.[]; (.event | type) == "string" and has("payload"))
                                       and any(.[]; .event == "tick")' >/dev/null
    else
        ! printf '%s\n' "$1" | grep -qv '^{"event":"[^"]*","seq":' && printf '%s\n' "$1" | grep -q '^{"event":"tick"'
    fi
}
if [ $status -eq 0 ] && lines_ok "$out"; then ok "swift-watch --count 2 prints two events, one JSON line each"
else not_ok "swift-watch --count 2 prints two events, one JSON line each" "exit $status, stdout: $out" "stderr: $(cat "$work/err")"; fi

if [ $failures -gt 0 ]; then
    echo "run-against-simulator: $failures check(s) failed"
    exit 1
fi
echo "run-against-simulator: every example ran against the simulator"
