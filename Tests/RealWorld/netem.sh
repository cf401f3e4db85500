#!/usr/bin/env bash
# netem.sh: the client over a real lossy link. Two network namespaces, the gateway simulator in one
# (10.77.0.1), the client in the other (10.77.0.2), joined by a veth pair with netem on both ends:
# 150 ms +- 50 ms delay, 3 % loss, reordering (netem's `reorder 25% 50%`). On a kernel without
# sch_netem the same impairment is applied by a small userspace wire (Python, stdlib only) between
# two TUN devices, one in each namespace, and a SKIP line says why. Checks:
#   1. send assembles the exact reply (a long multibyte echo, a long streamed lorem), byte for byte
#      against what the simulator logged as sent (--log), in ndjson, text and text --stream;
#   2. watch prints every chat/agent event the simulator sent on its connection, in order, no gaps;
#   3. history and send finish inside --timeout; a --timeout that cannot be met exits 5, no hang;
#   4. a link that goes silent mid-reply (every packet dropped, no reset) is noticed by the watchdog
#      (2 x tickIntervalMs): send exits 3 saying so; watch reports `disconnected`, keeps trying, and
#      reconnects once the link is back; nothing is left running in the client's namespace; and a
#      signal while a connect waits on the dead link ends the command with its documented status.
# Every client run is polled with a generous limit and killed past it (reported as a hang); no check
# asserts a duration. Helpers defined here (lib.sh is shared and left as it is): skip_all, stop_job,
# remove_namespace, link_silent, link_restore, start_ns_simulator, nclient_start, nclient_wait,
# nclient, sent_frames, conn_of_connid, conn_of_run, same_lines, send_matches_log, nothing_left.
source "$(dirname "$0")/lib.sh"

NS_GW=oc-netem-gw-$$ NS_CL=oc-netem-cl-$$
GW_IP=10.77.0.1 CL_IP=10.77.0.2
IMPAIR=(delay 150ms 50ms loss 3% reorder 25% 50%)
SILENT=(delay 150ms 50ms loss 100%)
CLIENT_LIMIT=90 # seconds any one client run may take before it counts as hung

names=(
    "echo over the lossy link: send (ndjson) prints exactly the frames the gateway sent, and the reply is the message"
    "echo over the lossy link: send -o text prints exactly the message"
    "lorem over the lossy link: send (ndjson) prints exactly the frames sent; deltas add up to the final text"
    "lorem over the lossy link: send -o text --stream prints exactly the final text"
    "watch over the lossy link prints every chat/agent event sent on its connection, in order, with no gap"
    "history finishes inside --timeout (exit 0) and holds the long reply intact"
    "send finishes inside --timeout (exit 0)"
    "send whose reply outlasts a tight --timeout exits 5 (no hang)"
    "history over a dead link with a tight --timeout exits 5 (no hang)"
    "a silent link mid-reply: send exits 3 with the watchdog's message (no hang)"
    "a silent link mid-reply: nothing is left running in the client's namespace"
    "a silent link: watch reports disconnected (watchdog), keeps trying, reconnects when the link is back"
    "watch after reconnecting prints the events of a new run, and ends 143 on SIGTERM"
    "the link really lost packets (the userspace wire: and reordered them)"
    "SIGINT while history's connect waits on a dead link ends it with 130, not a connect timeout"
)
skip_all() { local name; for name in "${names[@]}"; do skip "$name" "$1"; done; finish; }

# stop_job PID: stops a background job of this shell if it still runs (TERM, then KILL after 10 s).
stop_job() {
    local pid=$1 i
    jobs -pr | grep -qx "$pid" || { wait "$pid" 2>/dev/null; return 0; }
    kill "$pid" 2>/dev/null
    for ((i = 0; i < 100; i++)); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$pid" 2>/dev/null
    wait "$pid" 2>/dev/null
}
# remove_namespace NS: stops what is still running in NS (all started by this suite), deletes it.
remove_namespace() {
    local ns=$1 pids i
    pids=$(ip netns pids "$ns" 2>/dev/null)
    if [ -n "$pids" ]; then
        kill $pids 2>/dev/null
        for ((i = 0; i < 100; i++)); do [ -z "$(ip netns pids "$ns" 2>/dev/null)" ] && break; sleep 0.1; done
        pids=$(ip netns pids "$ns" 2>/dev/null)
        [ -n "$pids" ] && kill -KILL $pids 2>/dev/null
    fi
    ip netns del "$ns"
}

# --- what the machine must allow ---------------------------------------------------------------
[ "$(id -u)" -eq 0 ] || skip_all "needs root to create network namespaces and links (running as uid $(id -u))"
command -v ip >/dev/null || skip_all "ip (iproute2) is not installed"
command -v jq >/dev/null || skip_all "jq is not installed"
# ip makes /run/netns a mount point of its own the first time; undone at exit when it was not one before
# and no other namespace is left in it.
if ! mountpoint -q /run/netns 2>/dev/null; then
    at_exit '[ -z "$(ls -A /run/netns 2>/dev/null)" ] && umount /run/netns'
fi
ip netns add "$NS_GW" 2>"$scratch/why" || skip_all "ip netns add fails: $(head -n 1 "$scratch/why")"
at_exit "remove_namespace $NS_GW"
ip netns add "$NS_CL" 2>"$scratch/why" || skip_all "ip netns add fails: $(head -n 1 "$scratch/why")"
at_exit "remove_namespace $NS_CL"
ip -n "$NS_GW" link set lo up && ip -n "$NS_CL" link set lo up || skip_all "cannot bring up loopback in a new namespace"

# The link: veth + netem when the kernel has it; otherwise the userspace wire (NETEM_LINK=netem
# insists on the kernel's, NETEM_LINK=wire forces the wire).
link_mode= netem_why=
if [ "${NETEM_LINK:-auto}" = wire ]; then
    netem_why="NETEM_LINK=wire"
elif ! command -v tc >/dev/null; then
    netem_why="tc (iproute2) is not installed"
elif ! ip -n "$NS_GW" link add oc-gw type veth peer name oc-cl netns "$NS_CL" 2>"$scratch/why"; then
    netem_why="cannot create a veth pair: $(head -n 1 "$scratch/why")"
elif ip netns exec "$NS_GW" tc qdisc add dev oc-gw root netem "${IMPAIR[@]}" 2>"$scratch/why" &&
    ip netns exec "$NS_CL" tc qdisc add dev oc-cl root netem "${IMPAIR[@]}" 2>"$scratch/why"; then
    link_mode=netem
else
    netem_why="tc cannot add a netem qdisc ($(head -n 1 "$scratch/why"))"
    if [[ $(zcat /proc/config.gz 2>/dev/null) == *"# CONFIG_NET_SCH_NETEM is not set"* ]]; then
        netem_why+=": this kernel ($(uname -r)) is built without sch_netem (/proc/config.gz: CONFIG_NET_SCH_NETEM is not set)"
    elif ! command -v modprobe >/dev/null || [ ! -d "/lib/modules/$(uname -r)" ]; then
        netem_why+=": the sch_netem module is not loaded and this machine has no modules to load it from"
    fi
    ip -n "$NS_GW" link del oc-gw 2>/dev/null
fi
if [ -z "$link_mode" ]; then
    [ "${NETEM_LINK:-auto}" = netem ] && skip_all "$netem_why (NETEM_LINK=netem: no userspace wire)"
    command -v python3 >/dev/null || skip_all "$netem_why, and python3 (for the userspace wire) is not installed"
    [ -c /dev/net/tun ] || skip_all "$netem_why, and /dev/net/tun (for the userspace wire) is missing"
    skip "kernel netem on a veth pair" "$netem_why; the same impairment is applied by a userspace wire between TUN devices instead"
    link_mode=wire
fi

# The userspace wire: reads IP packets from the TUN device in each namespace and writes them to the
# other after netem's treatment: loss, then either at once (reorder, with netem's correlation) or
# after delay +- jitter (uniform), so packets overtake each other. SIGUSR1 drops everything (a
# silent link, no reset), SIGUSR2 restores; SIGHUP prints the counters, SIGTERM prints them and exits.
cat >"$scratch/wire.py" <<'EOF'
import ctypes, fcntl, heapq, os, random, select, signal, struct, sys, time
ns_a, if_a, ns_b, if_b = sys.argv[1:5]
delay, jitter, loss, reorder, corr = (float(x) for x in sys.argv[5:10])
libc = ctypes.CDLL(None, use_errno=True)
def tun(ns, name):
    fd = os.open("/var/run/netns/" + ns, os.O_RDONLY)  # where ip netns keeps them
    if libc.setns(fd, 0x40000000) != 0:  # CLONE_NEWNET
        raise OSError(ctypes.get_errno(), "setns " + ns)
    os.close(fd)
    t = os.open("/dev/net/tun", os.O_RDWR | os.O_NONBLOCK)
    fcntl.ioctl(t, 0x400454CA, struct.pack("16sH", name.encode(), 0x0001 | 0x1000))  # TUNSETIFF: IFF_TUN | IFF_NO_PI
    return t
home = os.open("/proc/self/ns/net", os.O_RDONLY)
a, b = tun(ns_a, if_a), tun(ns_b, if_b)
libc.setns(home, 0x40000000)  # back home: the wire is in neither namespace
os.close(home)
peer = {a: b, b: a}
silent = False
stats = {"in": 0, "lost": 0, "silenced": 0, "reordered": 0, "out": 0}
def on_signal(number, frame):
    global silent
    if number == signal.SIGUSR1:
        silent = True; print("silent", flush=True)
    elif number == signal.SIGUSR2:
        silent = False; print("open", flush=True)
    else:
        print("stats " + " ".join(f"{k}={v}" for k, v in stats.items()), flush=True)
        if number != signal.SIGHUP:
            os._exit(0)
for s in (signal.SIGUSR1, signal.SIGUSR2, signal.SIGHUP, signal.SIGTERM, signal.SIGINT):
    signal.signal(s, on_signal)
rng, last = random.Random(), 0.0
def correlated(percent):  # netem's correlated draw: part fresh, part the last one
    global last
    last = (1 - corr / 100) * rng.random() + (corr / 100) * last
    return last < percent / 100
queue, n = [], 0
print("ready", flush=True)
while True:
    now = time.monotonic()
    while queue and queue[0][0] <= now:
        _, _, fd, packet = heapq.heappop(queue)
        try:
            os.write(fd, packet); stats["out"] += 1
        except OSError:  # the device is down or its queue full: the packet is lost
            pass
    ready, _, _ = select.select([a, b], [], [], max(0.0, queue[0][0] - now) if queue else None)
    for fd in ready:
        while True:
            try:
                packet = os.read(fd, 65536)
            except BlockingIOError:
                break
            stats["in"] += 1
            if silent:
                stats["silenced"] += 1; continue
            if rng.random() < loss / 100:
                stats["lost"] += 1; continue
            if correlated(reorder):
                wait = 0.0; stats["reordered"] += 1
            else:
                wait = max(0.0, rng.uniform(delay - jitter, delay + jitter)) / 1000
            n += 1
            heapq.heappush(queue, (time.monotonic() + wait, n, peer[fd], packet))
EOF

WIRE_PID= silences=0 opens=0
if [ "$link_mode" = wire ]; then
    python3 "$scratch/wire.py" "$NS_GW" oc-gw "$NS_CL" oc-cl 150 50 3 25 50 >"$scratch/wire.out" 2>&1 &
    WIRE_PID=$!
    at_exit "stop_job $WIRE_PID"
    wait_for_line "$scratch/wire.out" '^ready$' 30 >/dev/null || skip_all "the userspace wire did not start: $(tail -n 1 "$scratch/wire.out")"
    ip -n "$NS_GW" addr add "$GW_IP" peer "$CL_IP" dev oc-gw && ip -n "$NS_CL" addr add "$CL_IP" peer "$GW_IP" dev oc-cl ||
        skip_all "cannot address the TUN devices"
else
    ip -n "$NS_GW" addr add "$GW_IP/24" dev oc-gw && ip -n "$NS_CL" addr add "$CL_IP/24" dev oc-cl || skip_all "cannot address the veth pair"
fi
ip -n "$NS_GW" link set oc-gw up && ip -n "$NS_CL" link set oc-cl up || skip_all "cannot bring the link up"
echo "# link: $link_mode, ${IMPAIR[*]} on both ends"

# link_silent / link_restore: every packet dropped from now on (no reset, no link down), and back.
link_silent() {
    if [ "$link_mode" = netem ]; then
        ip netns exec "$NS_GW" tc qdisc change dev oc-gw root netem "${SILENT[@]}" &&
            ip netns exec "$NS_CL" tc qdisc change dev oc-cl root netem "${SILENT[@]}"
    else
        silences=$((silences + 1)); kill -USR1 "$WIRE_PID"
        local start=$SECONDS
        until [ "$(grep -c '^silent$' "$scratch/wire.out")" -ge "$silences" ]; do ((SECONDS - start < 30)) || return 1; sleep 0.05; done
    fi
}
link_restore() {
    if [ "$link_mode" = netem ]; then
        ip netns exec "$NS_GW" tc qdisc change dev oc-gw root netem "${IMPAIR[@]}" &&
            ip netns exec "$NS_CL" tc qdisc change dev oc-cl root netem "${IMPAIR[@]}"
    else
        opens=$((opens + 1)); kill -USR2 "$WIRE_PID"
        local start=$SECONDS
        until [ "$(grep -c '^open$' "$scratch/wire.out")" -ge "$opens" ]; do ((SECONDS - start < 30)) || return 1; sleep 0.05; done
    fi
}

# The client's device identity, made once against a loopback simulator (a loopback client needs no
# pairing); the simulators across the link approve it by id, as a remote gateway would.
start_simulator local --log "$scratch/sim-local.log" || skip_all "the simulator does not start on loopback"
client --url "$SIM_URL_local" history
history_ok >/dev/null || skip_all "the client does not work even on loopback: exit $STATUS, $ERR"
DEVICE_ID=$(jq -r 'select(.dir == "in") | .frame | objects | select(.method == "connect") | .params.device.id // empty' "$scratch/sim-local.log" | head -n 1)
[ -n "$DEVICE_ID" ] || skip_all "no device id in the loopback simulator's log"

# start_ns_simulator NAME ARGS...: the simulator in the gateway's namespace on 10.77.0.1, logging
# every frame to $scratch/sim-NAME.log; sets SIM_URL_<NAME> and SIM_LOG_<NAME>. Stopped at exit.
start_ns_simulator() {
    local name=$1 out=$scratch/sim-$1.out log=$scratch/sim-$1.log; shift
    ip netns exec "$NS_GW" "$SIMULATOR" --host "$GW_IP" --port 0 --token "$TOKEN" --approve "$DEVICE_ID" --log "$log" "$@" >"$out" 2>&1 &
    local pid=$!
    at_exit "stop_job $pid"
    wait_for_line "$out" '^listening on ' 30 || return 1
    printf -v "SIM_URL_$name" %s "$(sed -n 's/^listening on //p' "$out" | head -n 1)"
    printf -v "SIM_LOG_$name" %s "$log"
}

# nclient_start OUTFILE ERRFILE [VAR=VALUE...] ARGS...: the client in the client's namespace (as
# lib.sh's client: private home, the test token, only the environment given, plus the opt-in to
# plaintext ws:// on a private network), in the background; sets CLIENT_PID.
nclient_start() {
    local out=$1 err=$2 home=$scratch/home variables=(); shift 2
    while [[ $# -gt 0 && $1 =~ ^[A-Z_][A-Z0-9_]*= ]]; do variables+=("$1"); shift; done
    ip netns exec "$NS_CL" env -i PATH=/usr/bin:/bin HOME="$home" OPENCLAW_STATE_DIR="$home/.openclaw" \
        OPENCLAW_ALLOW_INSECURE_PRIVATE_WS=1 "${variables[@]}" "$OPENCLAW" --token "$TOKEN" "$@" >"$out" 2>"$err" &
    CLIENT_PID=$!
}
# nclient_wait PID [SECONDS]: polls until the client exits; sets STATUS. Past SECONDS it is a hang:
# the client is killed, STATUS=124 and HUNG=1.
nclient_wait() {
    local pid=$1 limit=${2:-$CLIENT_LIMIT} start=$SECONDS
    HUNG=0
    while kill -0 "$pid" 2>/dev/null; do
        if ((SECONDS - start >= limit)); then HUNG=1; stop_job "$pid"; STATUS=124; return; fi
        sleep 0.05
    done
    wait "$pid"; STATUS=$?
}
# nclient ARGS...: nclient_start + nclient_wait; sets OUT, ERR, STATUS (as lib.sh's client).
nclient() {
    nclient_start "$scratch/out" "$scratch/err" "$@"
    nclient_wait "$CLIENT_PID"
    OUT=$(cat "$scratch/out") ERR=$(cat "$scratch/err")
    ((HUNG)) && ERR+=" [killed: still running after $CLIENT_LIMIT s]"
}

# sent_frames LOG CONN JQ_FILTER: the frames the simulator sent on connection CONN that pass the
# filter, one compact JSON line each, in order.
sent_frames() { jq -c --argjson conn "$2" "select(.dir == \"out\" and .conn == \$conn) | .frame | objects | $3" "$1"; }
# conn_of_connid LOG CONNID: the log's connection number for hello-ok's server.connId.
conn_of_connid() { jq -r --arg id "$2" 'select(.dir == "out") | select(.frame | objects | .payload.server.connId? == $id) | .conn' "$1" | head -n 1; }
# conn_of_run LOG RUNID: the connection that got the chat.send answer for RUNID.
conn_of_run() { jq -r --arg run "$2" 'select(.dir == "out") | select(.frame | objects | .type == "res" and .payload.runId? == $run) | .conn' "$1" | head -n 1; }
# same_lines NAME EXPECTED ACTUAL: the two files are equal (byte for byte); a diff when not.
same_lines() {
    cmp -s "$2" "$3" && return 0
    echo "$1: $(wc -l <"$2") line(s) expected, $(wc -l <"$3") printed; first difference:"
    diff "$2" "$3" | head -n 8 | cut -c 1-300
    return 1
}
# send_matches_log SIM_LOG: the last client call was an ndjson send; what it printed (res and chat
# events) is, frame for frame, what the simulator sent for that run, and the deltas add up to the
# final text. Leaves the final text in $scratch/final.txt.
send_matches_log() {
    local log=$1 run conn
    expect_status 0 || return 1
    run=$(jq -r 'select(.type == "res") | .payload.runId' <<<"$OUT" | head -n 1)
    [ -n "$run" ] || { echo "no chat.send res in stdout: $(head -c 300 <<<"$OUT")"; return 1; }
    conn=$(conn_of_run "$log" "$run")
    [ -n "$conn" ] || { echo "run $run is not in the simulator's log"; return 1; }
    sent_frames "$log" "$conn" "select((.type == \"res\" and .payload.runId? == \"$run\") or (.event == \"chat\" and .payload.runId == \"$run\"))" >"$scratch/expected.ndjson"
    jq -c . <<<"$OUT" >"$scratch/printed.ndjson" || { echo "stdout is not whole JSON lines"; return 1; }
    same_lines "frames of run $run" "$scratch/expected.ndjson" "$scratch/printed.ndjson" || return 1
    jq -j 'select(.event == "chat" and .payload.state == "final") | .payload.message.content[0].text' "$scratch/printed.ndjson" >"$scratch/final.txt"
    jq -j 'select(.event == "chat" and .payload.state == "delta") | .payload.deltaText' "$scratch/printed.ndjson" >"$scratch/deltas.txt"
    [ "$(jq -c 'select(.event == "chat" and .payload.state == "final")' "$scratch/printed.ndjson" | wc -l)" -eq 1 ] || { echo "not exactly one final event"; return 1; }
    cmp "$scratch/final.txt" "$scratch/deltas.txt" || { echo "the deltas do not add up to the final text"; return 1; }
}

start_ns_simulator echo || skip_all "the simulator does not start in its namespace: $(cat "$scratch/sim-echo.out")"
start_ns_simulator lorem --reply lorem:150 || skip_all "the simulator does not start in its namespace"
# Ticks every second (watchdog 2 s); a 60-word reply, a delta every 100 ms: about 6 s in flight.
start_ns_simulator tick --tick-ms 1000 --reply lorem:60 --delta-ms 100 || skip_all "the simulator does not start in its namespace"

# --- 1. send assembles the exact reply ---------------------------------------------------------
# Multibyte text, runs of spaces, a tab, a newline and a 12,000-byte word of 3-byte characters (one
# frame far larger than a segment), so that reads end mid-character and mid-frame.
message=$scratch/message.txt
{
    printf 'héllo wörld ✓ 🦀 日本語のテキスト  two  spaces\ta tab\na newline'
    for i in $(seq 1 40); do printf ' wörd-%d' "$i"; done
    printf ' '; printf '€%.0s' $(seq 1 4000); printf ' the end'
} >"$message"
{ cat "$message"; echo; } >"$scratch/message-line.txt"

nclient --url "$SIM_URL_echo" --timeout 60 send -f "$message"
check "${names[0]}" eval 'send_matches_log "$SIM_LOG_echo" && cmp "$scratch/final.txt" "$message"'
nclient --url "$SIM_URL_echo" --timeout 60 -o text send -f "$message"
check "${names[1]}" eval 'expect_status 0 && cmp "$scratch/message-line.txt" "$scratch/out"'

nclient --url "$SIM_URL_lorem" --timeout 60 send "a long one, please"
check "${names[2]}" eval 'send_matches_log "$SIM_LOG_lorem" && [ "$(wc -w <"$scratch/final.txt")" -eq 150 ]'
cp "$scratch/final.txt" "$scratch/lorem-final.txt"
{ cat "$scratch/lorem-final.txt"; echo; } >"$scratch/lorem-line.txt"
nclient --url "$SIM_URL_lorem" --timeout 60 -o text send --stream "again"
check "${names[3]}" eval 'expect_status 0 && [ -s "$scratch/lorem-final.txt" ] && cmp "$scratch/lorem-line.txt" "$scratch/out"'

# --- 2. watch loses nothing the gateway delivered ----------------------------------------------
watch_ok() {
    local conn
    [ "$watch_status" -eq 143 ] || { echo "watch exited $watch_status (hung: $watch_hung), not 143 for SIGTERM; stderr: $(cat "$scratch/watch.err")"; return 1; }
    [ "$senders_ok" -eq 3 ] || { echo "only $senders_ok of 3 sends succeeded: $sender_errors"; return 1; }
    conn=$(conn_of_connid "$SIM_LOG_echo" "$watch_connid")
    [ -n "$conn" ] || { echo "the watch's connId $watch_connid is not in the log"; return 1; }
    sent_frames "$SIM_LOG_echo" "$conn" 'select(.type == "event" and (.event == "chat" or .event == "agent"))' >"$scratch/expected.ndjson"
    jq -c 'select(.type == "event")' "$scratch/watch.out" >"$scratch/printed.ndjson" || { echo "watch printed a line that is not JSON"; return 1; }
    same_lines "watch events" "$scratch/expected.ndjson" "$scratch/printed.ndjson" || return 1
    for run in "${runs[@]}"; do
        grep -q "\"runId\":\"$run\".*\"state\":\"final\"" "$scratch/printed.ndjson" || { echo "run $run has no final event"; return 1; }
    done
    ! grep -q '"type":"client","event":"\(gap\|disconnected\|reconnected\)"' "$scratch/watch.out" || { echo "client events:"; grep '"type":"client"' "$scratch/watch.out"; return 1; }
    ! grep -q 'gap\|reconnect' "$scratch/watch.err" || { echo "stderr: $(cat "$scratch/watch.err")"; return 1; }
}
nclient_start "$scratch/watch.out" "$scratch/watch.err" --url "$SIM_URL_echo" watch -e chat -e agent --client-events
watch_pid=$CLIENT_PID watch_status=1 watch_hung=0 senders_ok=0 sender_errors= runs=() watch_connid=
if wait_for_line "$scratch/watch.out" '"event":"connected"' 60 >/dev/null; then
    watch_connid=$(jq -r 'select(.type == "client" and .event == "connected") | .connId' "$scratch/watch.out" | head -n 1)
    for i in 1 2 3; do
        nclient --url "$SIM_URL_echo" --timeout 60 send "message $i of three: wörds ✓ and more words, twenty of them or so, to make a run of events $i"
        if [ "$STATUS" -eq 0 ]; then
            senders_ok=$((senders_ok + 1)); runs+=("$(jq -r 'select(.type == "res") | .payload.runId' <<<"$OUT" | head -n 1)")
        else sender_errors+=" [$i: exit $STATUS: $ERR]"; fi
    done
    if [ ${#runs[@]} -gt 0 ]; then
        last=${runs[${#runs[@]} - 1]}
        wait_for_line "$scratch/watch.out" "\"runId\":\"$last\".*\"state\":\"final\"" 60 >/dev/null
    fi
fi
kill -TERM "$watch_pid" 2>/dev/null
nclient_wait "$watch_pid" 30
watch_status=$STATUS watch_hung=$HUNG
check "${names[4]}" watch_ok
echo "# watch printed $(jq -c 'select(.type == "event")' "$scratch/watch.out" 2>/dev/null | wc -l) chat/agent events of ${#runs[@]} runs"

# --- 3. one-shot commands inside --timeout -----------------------------------------------------
history_holds_message() {
    history_ok || return 1
    jq -e --rawfile text "$message" '.payload.messages | any(.role == "assistant" and ((.content | if type == "string" then . else (map(.text // "") | join("")) end) == $text))' <<<"$OUT" >/dev/null ||
        { echo "no assistant message in the history equals the message sent ($(jq '.payload.messages | length' <<<"$OUT") messages)"; return 1; }
}
nclient --url "$SIM_URL_echo" --timeout 30 history
check "${names[5]}" history_holds_message
nclient --url "$SIM_URL_echo" --timeout 30 -o text send "in good time"
check "${names[6]}" eval 'expect_status 0 && [ "$OUT" = "in good time" ]'
# The tick simulator's reply takes about 6 s whatever the network does: 1 s cannot be met.
nclient --url "$SIM_URL_tick" --timeout 1 send "too slow for one second"
check "${names[7]}" eval 'expect_status 5 && expect_err "timed out"'

# --- the impairment is real (measured before the link is silenced on purpose) ---------------
impairment() {
    if [ "$link_mode" = wire ]; then
        kill -HUP "$WIRE_PID"
        wait_for_line "$scratch/wire.out" '^stats ' 30 || return 1
        local stats; stats=$(grep '^stats ' "$scratch/wire.out" | tail -n 1)
        echo "# wire so far: ${stats#stats }" >"$scratch/impairment.txt"
        [[ $stats =~ \ lost=([0-9]+) ]] && ((BASH_REMATCH[1] > 0)) && [[ $stats =~ \ reordered=([0-9]+) ]] && ((BASH_REMATCH[1] > 0)) ||
            { echo "no loss or no reordering: $stats"; return 1; }
    else
        local dropped=0 ns line
        for ns in "$NS_GW:oc-gw" "$NS_CL:oc-cl"; do
            line=$(ip netns exec "${ns%%:*}" tc -s qdisc show dev "${ns#*:}" | grep -o 'dropped [0-9]*' | head -n 1)
            echo "# netem on ${ns#*:} so far: ${line:-no counters}" >>"$scratch/impairment.txt"
            line=${line#dropped }; dropped=$((dropped + ${line:-0}))
        done
        ((dropped > 0)) || { echo "netem dropped nothing"; return 1; }
    fi
}
check "${names[13]}" impairment
cat "$scratch/impairment.txt" 2>/dev/null

# --- 4. a link that goes silent mid-reply ------------------------------------------------------
nclient_start "$scratch/silent.out" "$scratch/silent.err" --url "$SIM_URL_tick" --timeout 120 send "reply while the link dies"
silent_pid=$CLIENT_PID
if wait_for_line "$scratch/silent.out" '"state":"delta"' 60 >"$scratch/why"; then
    link_silent
    nclient_wait "$silent_pid" 60
else
    stop_job "$silent_pid"; STATUS=-1 HUNG=0
fi
OUT=$(cat "$scratch/silent.out") ERR=$(cat "$scratch/silent.err")
silent_send_ok() {
    [ "$STATUS" -ne -1 ] || { echo "no delta arrived before the link was to go silent:"; cat "$scratch/why"; return 1; }
    ((HUNG == 0)) || { echo "send still running 60 s after the link went silent (killed); stderr: $ERR"; return 1; }
    expect_status 3 || return 1
    expect_err "openclaw: error: no frame from the gateway for" && expect_err "(2 × tickIntervalMs)" || return 1
    [ "$(grep -c '^openclaw: error:' <<<"$ERR")" -eq 1 ] || { echo "not exactly one error line: $ERR"; return 1; }
    jq -e . <<<"$OUT" >/dev/null || { echo "stdout is not whole JSON lines: $(tail -c 300 <<<"$OUT")"; return 1; }
}
check "${names[9]}" silent_send_ok
nothing_left() { local pids; pids=$(ip netns pids "$NS_CL"); [ -z "$pids" ] || { echo "still running:"; ps -o pid,ppid,args -p $pids; return 1; }; }
check "${names[10]}" nothing_left

# Still dead (no SYN answered): a one-shot command whose --timeout cannot be met (check 3) ...
link_silent
nclient --url "$SIM_URL_tick" --timeout 2 history
check "${names[8]}" eval 'expect_status 5 && expect_err "timed out"'
# ... and one interrupted while its TCP connect waits: SIGINT ends it with 130, as documented,
# rather than when --connect-timeout runs out.
syn_sent() { ip netns exec "$NS_CL" ss -tn state syn-sent 2>/dev/null | grep -qF "$GW_IP:"; }
nclient_start "$scratch/int.out" "$scratch/int.err" --url "$SIM_URL_tick" --connect-timeout 6 --timeout 60 history
int_pid=$CLIENT_PID start=$SECONDS
until syn_sent || ! kill -0 "$int_pid" 2>/dev/null || ((SECONDS - start >= 30)); do sleep 0.05; done
syn_sent && in_connect=1 || in_connect=0
kill -INT "$int_pid" 2>/dev/null
nclient_wait "$int_pid" 60
ERR=$(cat "$scratch/int.err")
check "${names[14]}" eval '((in_connect)) || { echo "never saw the connect waiting (SYN-SENT)"; false; } && expect_status 130'
link_restore

# watch: the link dies while watch idles (ticks only), stays dead across a connect attempt, comes back.
nclient_start "$scratch/watch2.out" "$scratch/watch2.err" --url "$SIM_URL_tick" watch --client-events \
    --backoff-base 0.2 --backoff-max 1 --connect-timeout 4
watch_pid=$CLIENT_PID
watch_steps() {
    wait_for_line "$scratch/watch2.out" '"event":"connected"' 60 || return 1
    link_silent || { echo "could not silence the link"; return 1; }
    wait_for_line "$scratch/watch2.out" '"event":"disconnected".*no frame from the gateway for' 60 || return 1
    wait_for_line "$scratch/watch2.out" '"event":"connect-failed"' 60 || return 1 # it keeps trying
    link_restore || { echo "could not restore the link"; return 1; }
    wait_for_line "$scratch/watch2.out" '"event":"reconnected"' 90 || return 1
}
watch_steps >"$scratch/watch-steps.txt" 2>&1
watch_steps_status=$?
link_restore >/dev/null 2>&1 # (in case a step failed with the link silent)
check "${names[11]}" eval '[ "$watch_steps_status" -eq 0 ] || { cat "$scratch/watch-steps.txt"; echo "stderr:"; cat "$scratch/watch2.err"; false; }'

# After the reconnect, a new run's events reach watch; SIGTERM then ends it with 143.
after_reconnect() {
    [ "$watch_steps_status" -eq 0 ] || { echo "(watch did not reconnect)"; return 1; }
    nclient --url "$SIM_URL_tick" --timeout 60 send --no-wait "after the storm"
    expect_status 0 || return 1
    local run; run=$(jq -r 'select(.type == "res") | .payload.runId' <<<"$OUT" | head -n 1)
    wait_for_line "$scratch/watch2.out" "\"runId\":\"$run\"" 60
}
after_reconnect >"$scratch/after.txt" 2>&1
after_status=$?
kill -TERM "$watch_pid" 2>/dev/null
nclient_wait "$watch_pid" 30
watch_status=$STATUS watch_hung=$HUNG
watch_after_ok() {
    [ "$after_status" -eq 0 ] || { cat "$scratch/after.txt"; return 1; }
    ((watch_hung == 0)) || { echo "watch still running 30 s after SIGTERM (killed)"; return 1; }
    [ "$watch_status" -eq 143 ] || { echo "watch exited $watch_status, not 143 for SIGTERM: $(cat "$scratch/watch2.err")"; return 1; }
    jq -e . "$scratch/watch2.out" >/dev/null || { echo "watch printed a line that is not JSON"; return 1; }
    nothing_left
}
check "${names[12]}" watch_after_ok

finish
