# lib.sh: what the real-world suites share (sourced). TAP-style lines, as packaging/package-test.sh prints
# them: `ok - NAME`, `not ok - NAME` with the evidence indented, `ok - NAME # SKIP why`.
#
# OPENCLAW    the client under test (default: the debug build)
# SIMULATOR   the gateway simulator (default: the debug build)
# Each suite makes its own scratch directory, removed (with every process it started) on exit.
set -uo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
OPENCLAW=${OPENCLAW:-$repo/.build/debug/openclaw}
SIMULATOR=${SIMULATOR:-$repo/.build/debug/openclaw-gateway-sim}
TOKEN=real-world-test-token
scratch=$(mktemp -d /tmp/openclaw-realworld.XXXXXX)
failures=0
cleanups=()
# at_exit COMMAND: run at exit, last registered first (stop servers, unmount, delete namespaces).
at_exit() { cleanups+=("$1"); }
run_cleanups() {
    local status=$? i
    for ((i = ${#cleanups[@]} - 1; i >= 0; i--)); do eval "${cleanups[$i]}" >/dev/null 2>&1 || true; done
    rm -rf "$scratch"
    exit $status
}
trap run_cleanups EXIT
trap 'exit 130' INT TERM

ok() { echo "ok - $1"; }
skip() { echo "ok - $1 # SKIP $2"; }
fail() { echo "not ok - $1"; shift; [ $# -gt 0 ] && printf '%s\n' "$@" | sed 's/^/    /' | head -n 40; failures=$((failures + 1)); }
# check NAME COMMAND...: passes when COMMAND succeeds; shows its output when it does not.
check() {
    local name=$1 output; shift
    if output=$("$@" 2>&1); then ok "$name"; else fail "$name" "$output"; fi
}
finish() { [ "$failures" -eq 0 ]; exit; }

# wait_for_line FILE PATTERN [SECONDS]: waits until FILE has a line matching PATTERN (an event, not
# a fixed sleep); fails after SECONDS (default 30), printing the file.
wait_for_line() {
    local file=$1 pattern=$2 limit=${3:-30} start=$SECONDS
    while ! grep -qE "$pattern" "$file" 2>/dev/null; do
        if ((SECONDS - start >= limit)); then echo "no line matching /$pattern/ in $file after ${limit} s:"; cat "$file"; return 1; fi
        sleep 0.05
    done
}

# wait_for_port PORT PID [SECONDS]: polls until something accepts on 127.0.0.1:PORT; fails at once when
# PID (the server that should listen there) has exited, and after SECONDS (default 30).
wait_for_port() {
    local port=$1 pid=$2 limit=${3:-30} start=$SECONDS
    until (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; do
        kill -0 "$pid" 2>/dev/null || { echo "process $pid exited before listening on port $port"; return 1; }
        if ((SECONDS - start >= limit)); then echo "nothing listens on port $port after $limit s"; return 1; fi
        sleep 0.05
    done
}

# count_lines FILE FIXED-TEXT: how many lines of FILE hold the text (0 when none or no file).
count_lines() { local n; n=$(grep -cF -- "$2" "$1" 2>/dev/null); echo "${n:-0}"; }

# wait_for_count FILE FIXED-TEXT N [SECONDS]: waits until N lines of FILE hold the text. Quiet on
# failure but for the count: a simulator's log holds the token and is never printed.
wait_for_count() {
    local file=$1 text=$2 n=$3 limit=${4:-30} start=$SECONDS
    while (($(count_lines "$file" "$text") < n)); do
        if ((SECONDS - start >= limit)); then echo "$(count_lines "$file" "$text") of $n lines holding $text in ${file##*/} after $limit s"; return 1; fi
        sleep 0.05
    done
}

# start_simulator NAME ARGS...: starts the simulator on a free loopback port with the test token;
# sets SIM_PID_<NAME>, SIM_PORT_<NAME> and SIM_URL_<NAME>. Stopped at exit.
start_simulator() {
    local name=$1 out; shift
    out=$scratch/sim-$name.out
    "$SIMULATOR" --port 0 --token "$TOKEN" "$@" >"$out" 2>&1 &
    local pid=$!
    at_exit "kill $pid; wait $pid"
    wait_for_line "$out" '^listening on ' 30 || return 1
    local url; url=$(sed -n 's/^listening on //p' "$out" | head -n 1)
    printf -v "SIM_PID_$name" %s "$pid"
    printf -v "SIM_URL_$name" %s "$url"
    printf -v "SIM_PORT_$name" %s "${url##*:}"
}

# free_port: a TCP port nothing listens on now (the kernel's choice).
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

# client [VAR=VALUE...] ARGS...: the client with a private home and state directory, the test token and
# only the environment given (names in either case: https_proxy as HTTPS_PROXY); sets OUT, ERR and STATUS.
# A client still running after CLIENT_GUARD seconds (default 60) is stopped: exit 124, a hang. CLIENT_WRAP
# (an array, empty unless set) runs it inside another command (a namespace). CLIENT_GLIBC_TUNABLES, when
# set, becomes the client's GLIBC_TUNABLES (make test-arm64: see Emulation.childEnvironment).
client() {
    local home=$scratch/home variables=()
    while [[ $# -gt 0 && $1 =~ ^[A-Za-z_][A-Za-z0-9_]*= ]]; do variables+=("$1"); shift; done
    mkdir -p "$home"
    env -i PATH=/usr/bin:/bin HOME="$home" OPENCLAW_STATE_DIR="$home/.openclaw" \
        ${CLIENT_GLIBC_TUNABLES:+"GLIBC_TUNABLES=$CLIENT_GLIBC_TUNABLES"} "${variables[@]}" \
        timeout -k 5 "${CLIENT_GUARD:-60}" "${CLIENT_WRAP[@]}" "$OPENCLAW" --token "$TOKEN" "$@" >"$scratch/out" 2>"$scratch/err"
    STATUS=$?
    OUT=$(cat "$scratch/out") ERR=$(cat "$scratch/err")
}

# client_in_background NAME [VAR=VALUE...] ARGS...: the client as `client` runs it (its own home and state
# directory $scratch/home-NAME, no guard), in the background, stdout in $scratch/NAME.out and stderr in
# $scratch/NAME.err; sets BG_PID. Stopped at exit.
client_in_background() {
    local name=$1 home=$scratch/home-$1 variables=(); shift
    while [[ $# -gt 0 && $1 =~ ^[A-Za-z_][A-Za-z0-9_]*= ]]; do variables+=("$1"); shift; done
    mkdir -p "$home"
    env -i PATH=/usr/bin:/bin HOME="$home" OPENCLAW_STATE_DIR="$home/.openclaw" "${variables[@]}" \
        "$OPENCLAW" --token "$TOKEN" "$@" >"$scratch/$name.out" 2>"$scratch/$name.err" &
    BG_PID=$!
    at_exit "kill $BG_PID; wait $BG_PID"
}

# expect_status N: the last client call exited N (prints its stderr when not).
expect_status() { [ "$STATUS" -eq "$1" ] || { echo "exit $STATUS, expected $1; stderr: $ERR"; return 1; }; }
# expect_err TEXT: the last client call's stderr holds TEXT.
expect_err() { grep -qF -- "$1" <<<"$ERR" || { echo "stderr lacks \"$1\": $ERR"; return 1; }; }
# history_ok: the last call exited 0 and printed a history response.
history_ok() { expect_status 0 && jq -e 'select(.type == "res") | .ok' <<<"$OUT" >/dev/null || { echo "stdout: $OUT"; return 1; }; }
