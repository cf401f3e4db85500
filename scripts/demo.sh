#!/usr/bin/env bash
# `make demo`: start the bundled gateway simulator on a free port, send a message,
# print the session's history, stop the simulator. Uses a throwaway state directory.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${BIN_DIR:-.build/debug}
work=$(mktemp -d)
sim_pid=""
cleanup() {
    [ -n "$sim_pid" ] && kill "$sim_pid" 2>/dev/null && wait "$sim_pid" 2>/dev/null
    rm -rf "$work"
}
trap cleanup EXIT

"$bin/openclaw-gateway-sim" --port 0 --token demo-token --reply lorem:12 >"$work/sim.out" 2>"$work/sim.err" &
sim_pid=$!
for _ in $(seq 200); do
    grep -q '^listening on ' "$work/sim.out" 2>/dev/null && break
    sleep 0.05
done
url=$(sed -n 's/^listening on //p' "$work/sim.out" | head -n 1)
[ -n "$url" ] || { echo "demo: the simulator did not start:" >&2; cat "$work/sim.err" >&2; exit 1; }

export OPENCLAW_STATE_DIR="$work/state" OPENCLAW_GATEWAY_URL="$url" OPENCLAW_GATEWAY_TOKEN=demo-token
run() { printf '\n$ %s\n' "$*"; "$@"; }
echo "simulator: $url"
run "$bin/openclaw" send -o text "Hello from the openclaw demo"
run "$bin/openclaw" history -o text
run "$bin/openclaw" history --limit 2
if command -v jq >/dev/null; then
    printf '\n$ openclaw send "again" | jq -r '\''select(.event=="chat" and .payload.state=="final") | .payload.message.content[0].text'\''\n'
    "$bin/openclaw" send "again" | jq -r 'select(.event=="chat" and .payload.state=="final") | .payload.message.content[0].text'
fi
