#!/usr/bin/env bash
# proxies.sh: wss:// through the reverse proxies people put in front of a gateway, nginx and haproxy as
# Debian ships them, each terminating TLS (the make-pki.sh chain) and forwarding the WebSocket upgrade
# to the gateway's plain ws:// port with the settings a user copies (nginx: proxy_http_version 1.1,
# Upgrade and Connection, proxy_read_timeout; haproxy: mode http, timeout tunnel; both offering h2 by
# ALPN, as most sites do). Through each: history, an echoed send (ndjson and text), a long streamed
# reply that arrives whole, watch receiving events; and a watch held across an idle timeout shorter
# than the tick, whose tunnel the proxy cuts again and again: it reconnects every time, never gives
# up, and its backoff starts again from its base after each healthy connection.
# Each proxy is this test's own foreground process on loopback, every file it writes in the scratch
# directory; nothing needs root. NGINX and HAPROXY name the binaries (default: Debian's).
source "$(dirname "$0")/lib.sh"

NGINX=${NGINX:-/usr/sbin/nginx}
HAPROXY=${HAPROXY:-/usr/sbin/haproxy}
# The long reply: 3000 words, a final frame of ~19 KB (more than a TLS record, haproxy's 16 KB buffer
# and nginx's proxy_buffer_size), after 3000 deltas each carrying the whole text so far (~30 MB).
LOREM_WORDS=3000
IDLE_TIMEOUT=3   # seconds: the short idle timeout, against a tick of 60 s
BACKOFF=0.2      # watch --backoff-base; the first attempt's delay is 0.2-0.25 s (25 % jitter)

# interrupt PID: SIGINT, as Ctrl-C; waits (polling, 20 s at most) for the process to end and sets
# STOP_STATUS to its exit status (or "still running" after a SIGKILL).
interrupt() {
    local pid=$1 start=$SECONDS
    kill -INT "$pid" 2>/dev/null
    while kill -0 "$pid" 2>/dev/null && ((SECONDS - start < 20)); do sleep 0.05; done
    if kill -0 "$pid" 2>/dev/null; then kill -KILL "$pid"; wait "$pid" 2>/dev/null; STOP_STATUS="still running 20 s after SIGINT"; return; fi
    wait "$pid"
    STOP_STATUS=$?
}

# echo_ok TEXT: the last call printed a chat.send ack, then exactly one final chat event whose text is TEXT.
echo_ok() {
    expect_status 0 && jq -se --arg text "$1" '(.[0].type == "res" and .[0].ok) and
        ([.[] | select(.event == "chat" and .payload.state == "final")] | length == 1 and .[0].payload.message.content[0].text == $text)' \
        <<<"$OUT" >/dev/null || { echo "stdout: $OUT"; return 1; }
}

# port_of PROXY [LOREM|IDLE]: the port of that proxy's server for the echo gateway (or the other two).
port_of() { local var=${1^^}_PORT; [ -n "${2:-}" ] && var=${1^^}_${2}_PORT; echo "${!var}"; }

# lorem_complete: the long reply through $proxy (in $scratch/lorem-$proxy.ndjson) is whole: its final
# text has the words asked for, is the one the gateway sent, byte for byte, and the deltas before it add
# up to it (none lost, split or reordered on the way).
lorem_complete() {
    expect_status 0 || return 1
    local file=$scratch/lorem-$proxy.ndjson run final deltas sent
    run=$(head -n 1 "$file" | jq -r '.payload.runId // empty')
    [ -n "$run" ] || { echo "the first line is no chat.send ack: $(head -c 300 "$file")"; return 1; }
    final=$(grep -F '"state":"final"' "$file" | jq -r '.payload.message.content[0].text')
    deltas=$(jq -j 'select(.event == "chat" and .payload.state == "delta") | .payload.deltaText' "$file")
    sent=$(grep -F "\"runId\":\"$run\"" "$scratch/lorem.log" | grep -F '"event":"chat"' | grep -F '"state":"final"' |
        jq -r '.frame.payload.message.content[0].text')
    local words; words=$(wc -w <<<"$final")
    [ "$words" -eq "$LOREM_WORDS" ] || { echo "the final reply has $words words, not $LOREM_WORDS (${#final} characters)"; return 1; }
    [ -n "$sent" ] && [ "$final" = "$sent" ] || { echo "the final reply (${#final} characters) differs from the one the gateway sent (${#sent})"; return 1; }
    [ "$deltas" = "$final" ] || { echo "the $(grep -cF '"state":"delta"' "$file") deltas add up to ${#deltas} characters, not the final ${#final}"; return 1; }
}

for tool in jq openssl python3; do
    command -v "$tool" >/dev/null || { skip "reverse proxies" "$tool is not installed (needed for the PKI, free ports and reading frames)"; finish; }
done
pki=$scratch/pki
"$(dirname "$0")/make-pki.sh" "$pki" p256 >/dev/null 2>&1 || { fail "make the PKI"; finish; }

# The gateways: an echo for the everyday checks, a long talker, and for each proxy a quiet one (a tick
# every 60 s, far beyond the proxy's idle timeout). No slow-consumer cut for the long talker: its
# 3000 deltas come at full speed and the point here is what the proxy forwards.
start_simulator echo --log "$scratch/echo.log" || { fail "simulator"; finish; }
start_simulator lorem --reply "lorem:$LOREM_WORDS" --delta-ms 0 --max-buffered-bytes 1000000000 --log "$scratch/lorem.log" || { fail "simulator"; finish; }

proxies=()
# The nginx a user would write (one server per gateway here), run in the foreground without a master
# process; pid, temp paths and logs in $scratch/nginx. Its own error log (-e) too, so nothing under
# /var/log is opened.
start_nginx() {
    local dir=$scratch/nginx out
    mkdir -p "$dir/tmp"
    NGINX_PORT=$(free_port) NGINX_LOREM_PORT=$(free_port) NGINX_IDLE_PORT=$(free_port)
    nginx_server() { # PORT UPSTREAM-PORT IDLE-TIMEOUT
        cat <<CONF
    server {
        listen 127.0.0.1:$1 ssl http2;
        server_name localhost;
        ssl_certificate $pki/fullchain.pem;
        ssl_certificate_key $pki/key.pem;
        location / {
            proxy_pass http://127.0.0.1:$2;
            proxy_http_version 1.1;
            proxy_set_header Upgrade \$http_upgrade;
            proxy_set_header Connection \$connection_upgrade;
            proxy_set_header Host \$host;
            proxy_set_header X-Forwarded-For \$proxy_add_x_forwarded_for;
            proxy_set_header X-Forwarded-Proto \$scheme;
            proxy_read_timeout $3;
            proxy_send_timeout $3;
        }
    }
CONF
    }
    cat >"$dir/nginx.conf" <<CONF
daemon off;
master_process off;
worker_processes 1;
pid $dir/nginx.pid;
error_log $dir/error.log info;
events { worker_connections 256; }
http {
    access_log $dir/access.log;
    client_body_temp_path $dir/tmp/body;
    proxy_temp_path $dir/tmp/proxy;
    fastcgi_temp_path $dir/tmp/fastcgi;
    uwsgi_temp_path $dir/tmp/uwsgi;
    scgi_temp_path $dir/tmp/scgi;
    map \$http_upgrade \$connection_upgrade { default upgrade; '' close; }
$(nginx_server "$NGINX_PORT" "$SIM_PORT_echo" 90s)
$(nginx_server "$NGINX_LOREM_PORT" "$SIM_PORT_lorem" 90s)
$(nginx_server "$NGINX_IDLE_PORT" "$SIM_PORT_idle_nginx" ${IDLE_TIMEOUT}s)
}
CONF
    "$NGINX" -p "$dir" -c "$dir/nginx.conf" -e "$dir/error.log" >"$dir/stdout" 2>&1 &
    local pid=$!
    at_exit "kill $pid; wait $pid"
    out=$(wait_for_port "$NGINX_PORT" "$pid" && wait_for_port "$NGINX_LOREM_PORT" "$pid" && wait_for_port "$NGINX_IDLE_PORT" "$pid") \
        || { fail "nginx starts" "$out" "$(cat "$dir/stdout" "$dir/error.log" 2>/dev/null | grep -v '\[notice\]')"; return 1; }
}

# The haproxy a user would write: mode http, TLS on the bind (certificate and key in one PEM, as haproxy
# wants them), timeout tunnel for the upgraded connection. -db: foreground, logs to its stdout.
start_haproxy() {
    local dir=$scratch/haproxy out
    mkdir -p "$dir"
    HAPROXY_PORT=$(free_port) HAPROXY_LOREM_PORT=$(free_port) HAPROXY_IDLE_PORT=$(free_port)
    cat "$pki/fullchain.pem" "$pki/key.pem" >"$dir/gateway.pem"
    haproxy_section() { # NAME PORT UPSTREAM-PORT IDLE-TIMEOUT
        cat <<CONF
frontend $1
    bind 127.0.0.1:$2 ssl crt $dir/gateway.pem alpn h2,http/1.1
    option forwardfor
    http-request set-header X-Forwarded-Proto https
    default_backend $1
backend $1
    timeout tunnel $4
    server gateway 127.0.0.1:$3
CONF
    }
    cat >"$dir/haproxy.cfg" <<CONF
global
    log stdout format raw local0 info
defaults
    mode http
    log global
    option httplog
    timeout connect 5s
    timeout client 30s
    timeout server 30s
$(haproxy_section gateway "$HAPROXY_PORT" "$SIM_PORT_echo" 90s)
$(haproxy_section lorem "$HAPROXY_LOREM_PORT" "$SIM_PORT_lorem" 90s)
$(haproxy_section idle "$HAPROXY_IDLE_PORT" "$SIM_PORT_idle_haproxy" ${IDLE_TIMEOUT}s)
CONF
    "$HAPROXY" -db -f "$dir/haproxy.cfg" >"$dir/stdout" 2>&1 &
    local pid=$!
    at_exit "kill $pid; wait $pid"
    out=$(wait_for_port "$HAPROXY_PORT" "$pid" && wait_for_port "$HAPROXY_LOREM_PORT" "$pid" && wait_for_port "$HAPROXY_IDLE_PORT" "$pid") \
        || { fail "haproxy starts" "$out" "$(cat "$dir/stdout" 2>/dev/null)"; return 1; }
}

if [ ! -x "$NGINX" ]; then
    skip "nginx" "$NGINX is not installed (Debian: apt-get install nginx-light or nginx)"
elif ! "$NGINX" -V 2>&1 | grep -q -- --with-http_ssl_module || ! "$NGINX" -V 2>&1 | grep -q -- --with-http_v2_module; then
    skip "nginx" "$NGINX was built without http_ssl_module or http_v2_module"
elif ! start_simulator idle_nginx --tick-ms 60000 --log "$scratch/idle_nginx.log"; then
    fail "nginx: the quiet simulator behind it starts"
elif start_nginx; then
    proxies+=(nginx)
fi
if [ ! -x "$HAPROXY" ]; then
    skip "haproxy" "$HAPROXY is not installed (Debian: apt-get install haproxy)"
elif ! start_simulator idle_haproxy --tick-ms 60000 --log "$scratch/idle_haproxy.log"; then
    fail "haproxy: the quiet simulator behind it starts"
elif start_haproxy; then
    proxies+=(haproxy)
fi

# First, history through each (which also makes the device identity), then the idle watches, which
# run while the other checks do.
for proxy in "${proxies[@]}"; do
    client --url "wss://localhost:$(port_of "$proxy")" --cacert "$pki/root.pem" history
    check "$proxy: history through the proxy (TLS ended there, h2 offered by ALPN)" history_ok
    client_in_background "idle-$proxy" --url "wss://localhost:$(port_of "$proxy" IDLE)" --cacert "$pki/root.pem" \
        watch --client-events --sessions --backoff-base "$BACKOFF"
    printf -v "IDLE_PID_$proxy" %s "$BG_PID"
done

for proxy in "${proxies[@]}"; do
    url=wss://localhost:$(port_of "$proxy")

    client --url "$url" --cacert "$pki/root.pem" send "some text through $proxy"
    check "$proxy: send prints the ack, then one final reply that is the exact echo" echo_ok "some text through $proxy"
    client --url "$url" --cacert "$pki/root.pem" -o text send "some text through $proxy"
    check "$proxy: send -o text prints exactly the reply" eval 'expect_status 0 && [ "$OUT" = "some text through $proxy" ] || { echo "stdout: $OUT"; false; }'

    # The long reply: LOREM_WORDS deltas, then its final frame.
    client --url "wss://localhost:$(port_of "$proxy" LOREM)" --cacert "$pki/root.pem" send "talk at length through $proxy"
    cp "$scratch/out" "$scratch/lorem-$proxy.ndjson"
    OUT=""  # 30 MB; the file is read instead
    check "$proxy: a $LOREM_WORDS-word streamed reply arrives whole (the gateway's own final text; the deltas add up to it)" lorem_complete
    rm -f "$scratch/lorem-$proxy.ndjson"

    # watch through the proxy: the run's chat events and, subscribed, its sessions.changed.
    subscribed=$(count_lines "$scratch/echo.log" '"subscribed":true')
    client_in_background "watch-$proxy" --url "$url" --cacert "$pki/root.pem" watch --client-events --sessions
    watch_pid=$BG_PID
    # Connected and subscribed (the gateway has answered its sessions.subscribe), then a run.
    output=$(wait_for_line "$scratch/watch-$proxy.out" '"event":"connected"' 30 &&
        wait_for_count "$scratch/echo.log" '"subscribed":true' $((subscribed + 1)) 30)
    status=$?
    if [ $status -eq 0 ]; then
        client --url "$url" --cacert "$pki/root.pem" send "watched through $proxy"
        output=$(expect_status 0 &&
            wait_for_line "$scratch/watch-$proxy.out" '"state":"final".*"text":"watched through '"$proxy"'"' 30 &&
            wait_for_line "$scratch/watch-$proxy.out" '"event":"sessions.changed".*"phase":"end"' 30)
        status=$?
    fi
    interrupt "$watch_pid"
    if [ $status -eq 0 ] && [ "$STOP_STATUS" = 130 ]; then ok "$proxy: watch receives the run's chat events and sessions.changed, and ends 130 on SIGINT"
    else fail "$proxy: watch receives the run's chat events and sessions.changed, and ends 130 on SIGINT" "$output" "watch ended: $STOP_STATUS" \
        "stderr: $(cat "$scratch/watch-$proxy.err")"; fi
done

# The idle tunnels: the proxy cuts each after $IDLE_TIMEOUT s of silence (no tick for 60 s). Each watch
# runs until it has lost and regained its connection three times.
never_gave_up() {
    [ "$running" = yes ] && [ "$STOP_STATUS" = 130 ] && ! grep -qE '"event":"(gave-up|connect-failed)"' "$file" ||
        { echo "running when stopped: $running, exit: $STOP_STATUS, client events: $events"; cat "$scratch/idle-$proxy.err"; return 1; }
}
# connected, then each disconnect followed by its reconnect (the last disconnect may be unanswered when
# SIGINT came during its pause); and the gateway saw every connection subscribe.
each_reconnected() {
    local subscribes; subscribes=$(count_lines "$scratch/idle_$proxy.log" '"method":"sessions.subscribe"')
    [[ $events =~ ^connected(\ disconnected\ reconnected)+(\ disconnected)?$ ]] && ((subscribes >= $(grep -cF '"event":"reconnected"' "$file") + 1)) ||
        { echo "client events: $events"; echo "sessions.subscribe requests the gateway saw: $subscribes"; return 1; }
}
# A connection that was healthy (it got the answer to its subscription) resets the backoff: every delay
# is the first attempt's, below 2 x --backoff-base, however many times the tunnel is cut.
backoff_reset() {
    local delays attempts
    delays=$(jq -r 'select(.type == "client" and .event == "disconnected") | .delayMs' "$file" | paste -sd ' ')
    attempts=$(jq -r 'select(.type == "client" and .event == "reconnected") | .attempts' "$file" | paste -sd ' ')
    [ -n "$delays" ] && jq -e --argjson limit "$delay_limit" 'all(.[]; . < $limit)' <<<"[${delays// /,}]" >/dev/null ||
        { echo "delayMs of the disconnected events: $delays (limit $delay_limit)"; echo "attempts of the reconnected events: $attempts"; return 1; }
}
delay_limit=$(jq -n "$BACKOFF * 2000")
for proxy in "${proxies[@]}"; do
    pid_var=IDLE_PID_$proxy file=$scratch/idle-$proxy.out
    name="$proxy: a watch across a ${IDLE_TIMEOUT} s idle timeout"
    if output=$(wait_for_count "$file" '"event":"disconnected"' 3 60 && wait_for_count "$file" '"event":"reconnected"' 3 60); then
        ok "$name: the proxy cuts the idle tunnel and watch reconnects (3 times)"
    else
        fail "$name: the proxy cuts the idle tunnel and watch reconnects (3 times)" "$output" "stdout: $(cat "$file")" "stderr: $(cat "$scratch/idle-$proxy.err")"
    fi
    running=yes
    kill -0 "${!pid_var}" 2>/dev/null || running=no
    interrupt "${!pid_var}"
    events=$(jq -r 'select(.type == "client") | .event' "$file" | paste -sd ' ')
    check "$name: it never gives up (running until SIGINT, then exit 130; no gave-up, no connect-failed)" never_gave_up
    check "$name: each disconnect is followed by a reconnect that reaches the gateway and subscribes again" each_reconnected
    check "$name: the backoff starts again after each healthy connection (every delay below ${delay_limit} ms)" backoff_reset
done
finish
