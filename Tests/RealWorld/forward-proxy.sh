#!/usr/bin/env bash
# forward-proxy.sh: the client reaching its gateway through the forward proxies a network puts in its
# way: squid (HTTP CONNECT; open, with basic auth, refusing CONNECT), microsocks (SOCKS5, the name
# resolved by the proxy or by the client, with and without credentials), stunnel in front of squid (an
# https:// proxy endpoint), and the proxies that misbehave (none listening, one that never answers, one
# that closes the tunnel it granted). The proxy is chosen by the environment (HTTP_PROXY, HTTPS_PROXY,
# ALL_PROXY, NO_PROXY, lower case too) or by OpenClaw's own config (proxy.enabled, proxy.proxyUrl,
# OPENCLAW_PROXY_URL, proxy.loopbackMode, proxy.tls.caFile).
#
# The gateway's names (gw.proxy-test.internal for ws://, gw.example.test for wss://, the name in
# make-pki.sh's leaf) resolve nowhere but in squid's hosts_file and in the /etc/hosts of a private mount
# namespace: a connection that does not go through the proxy fails "cannot resolve" (checked first),
# so a check that passes proves the proxy carried it. ws:// to a .internal name needs
# OPENCLAW_ALLOW_INSECURE_PRIVATE_WS=1 (plaintext to a private name), given with every such call.
#
# Each proxy is this suite's own foreground process on a free loopback port, its files in the scratch
# directory (squid drops root to its own user, proxy, which owns squid's directory there).
# SQUID, MICROSOCKS and STUNNEL name the binaries (default: Debian's squid, microsocks, stunnel4).
source "$(dirname "$0")/lib.sh"

SQUID=${SQUID:-/usr/sbin/squid}
MICROSOCKS=${MICROSOCKS:-/usr/bin/microsocks}
STUNNEL=${STUNNEL:-/usr/bin/stunnel4}
NCSA_AUTH=${NCSA_AUTH:-/usr/lib/squid/basic_ncsa_auth}
GW=gw.proxy-test.internal         # the ws:// gateway's name
TLS_GW=gw.example.test            # the wss:// gateway's name (make-pki.sh's leaf has it)
WRONG_GW=other.proxy-test.internal  # resolves (for squid) to the TLS gateway, a name its certificate lacks
PRIVATE=OPENCLAW_ALLOW_INSECURE_PRIVATE_WS=1
PROXY_USER=claw-proxy-user
PROXY_PASSWORD=Pr0xyPassw0rd-9f3e71c2   # must appear in no output of the client
BACKOFF=0.2                        # watch --backoff-base for the squid restart

for tool in jq openssl python3 curl; do
    command -v "$tool" >/dev/null || { skip "forward proxies" "$tool is not installed"; finish; }
done
if [ ! -x "$SQUID" ]; then skip "forward proxies" "$SQUID is not installed (Debian: apt-get install squid)"; finish; fi

# The names only the proxies (and a client in a namespace) can resolve.
hosts=$scratch/hosts
printf '127.0.0.1 localhost\n127.0.0.1 %s %s %s\n' "$GW" "$TLS_GW" "$WRONG_GW" >"$hosts"
# A private mount namespace whose /etc/hosts is $hosts, when this machine allows one (root).
if [ "$(id -u)" -ne 0 ]; then
    namespace_skip="needs root: a private mount namespace whose /etc/hosts knows the gateway's name"
elif ! why=$(unshare --mount --propagation private sh -c 'mount --bind "$0" /etc/hosts && getent hosts "$1"' "$hosts" "$GW" 2>&1); then
    namespace_skip="no private mount namespace here (unshare --mount, mount --bind): ${why:-unknown error}"
fi
resolving=(unshare --mount --propagation private sh -c 'mount --bind "$0" /etc/hosts && exec "$@"' "$hosts")

# run_client [--resolving] [--guard SECONDS] ARGS...: lib.sh's `client`, stopped after SECONDS (default
# 60) and, with --resolving, in the namespace where the gateway's names resolve.
run_client() {
    local CLIENT_WRAP=() CLIENT_GUARD=60
    while :; do
        case $1 in
            --resolving) CLIENT_WRAP=("${resolving[@]}"); shift ;;
            --guard) CLIENT_GUARD=$2; shift 2 ;;
            *) break ;;
        esac
    done
    client "$@"
}

# config JSON: OpenClaw's config file in the client's state directory is JSON (none: no file).
config() {
    mkdir -p "$scratch/home/.openclaw"
    if [ "$1" = none ]; then rm -f "$scratch/home/.openclaw/openclaw.json"; else printf '%s\n' "$1" >"$scratch/home/.openclaw/openclaw.json"; fi
}

# proxy_error TEXT...: the last call failed as a proxy failure does: exit 3, nothing on stdout, one
# stderr line starting "openclaw: error:" that holds every TEXT.
proxy_error() {
    expect_status 3 || return 1
    [ -z "$OUT" ] && [ "$(wc -l <<<"$ERR")" -eq 1 ] && [[ $ERR == "openclaw: error:"* ]] ||
        { echo "expected one \"openclaw: error:\" line on stderr and nothing on stdout; stdout: $OUT"; echo "stderr: $ERR"; return 1; }
    local text; for text; do expect_err "$text" || return 1; done
}
# unresolved NAME: the last call went direct and could not resolve NAME (exit 3).
unresolved() { expect_status 3 && expect_err "cannot resolve $1"; }
# not_direct: the last call's failure was not the direct connection's (the name unresolved here).
not_direct() { ! grep -qF "cannot resolve $GW: Name or service not known" <<<"$ERR" || { echo "went direct: $ERR"; return 1; }; }
# no_password: the proxy password appears nowhere in the last call's output.
no_password() {
    ! grep -qF -- "$PROXY_PASSWORD" "$scratch/out" "$scratch/err" || { echo "the proxy password is in the output:"; grep -F -- "$PROXY_PASSWORD" "$scratch/out" "$scratch/err"; return 1; }
}
# through LOG TEXT N: history went well and LOG (a proxy's) has N lines holding TEXT (waiting for them:
# squid logs a tunnel when it closes).
through() { history_ok && wait_for_count "$1" "$2" "$3" 15; }

# ---------------------------------------------------------------------------------------------------
# The gateways: plain (ws://127.0.0.1:PORT, reached as ws://$GW:PORT) and TLS (make-pki.sh, P-256).
start_simulator plain --log "$scratch/plain.log" || { fail "simulator"; finish; }
pki=$scratch/pki
"$(dirname "$0")/make-pki.sh" "$pki" p256 >"$scratch/pki.out" 2>&1 || { fail "make the PKI" "$(cat "$scratch/pki.out")"; finish; }
start_simulator tls --tls-cert "$pki/fullchain.pem" --tls-key "$pki/key.pem" || { fail "simulator with TLS"; finish; }
PORT=$SIM_PORT_plain TLS_PORT=$SIM_PORT_tls
WS=ws://$GW:$PORT WSS=wss://$TLS_GW:$TLS_PORT

# Without a proxy the names do not resolve: every later success is the proxy's doing.
client $PRIVATE --url "$WS" history
check "direct: ws://$GW does not resolve here (exit 3, cannot resolve)" unresolved "$GW"
client --url "$WSS" --cacert "$pki/root.pem" history
check "direct: wss://$TLS_GW does not resolve here (exit 3, cannot resolve)" unresolved "$TLS_GW"

# ---------------------------------------------------------------------------------------------------
# squid: start_squid NAME EXTRA-CONFIG: a squid of its own on a free port, in the foreground (-N) with
# its own service name (-n: its shared memory segments /dev/shm/NAME-*), config, hosts_file, pid file
# and logs in $scratch/squid-NAME; access log there as access.log. Sets SQUID_PORT_<NAME>.
# cache_effective_user: squid refuses to serve as root; it drops to proxy (Debian's user for it).
squid_user=
if [ "$(id -u)" -eq 0 ]; then
    squid_user=proxy
    id "$squid_user" >/dev/null 2>&1 || squid_user=nobody
    chmod 711 "$scratch"  # squid's user walks through to its own directory
fi
declare -A squid_pid squid_service
launch_squid() { # NAME: (re)starts the configured squid; sets squid_pid[NAME]
    local name=$1 dir=$scratch/squid-$1 port_var=SQUID_PORT_$1
    rm -f "/dev/shm/${squid_service[$name]}"-*  # left by a squid stopped with SIGKILL
    "$SQUID" -N -n "${squid_service[$name]}" -f "$dir/squid.conf" >>"$dir/stdout" 2>&1 &
    squid_pid[$name]=$!
    at_exit "kill -KILL ${squid_pid[$name]}; wait ${squid_pid[$name]}; rm -f /dev/shm/${squid_service[$name]}-*"
    wait_for_port "${!port_var}" "${squid_pid[$name]}" 30 || { tail -n 20 "$dir/stdout" "$dir/cache.log" 2>/dev/null; return 1; }
}
# stop_squid NAME: SIGKILL (the tunnels cut at once, as a crash does).
stop_squid() { kill -KILL "${squid_pid[$1]}" 2>/dev/null; wait "${squid_pid[$1]}" 2>/dev/null; rm -f "/dev/shm/${squid_service[$1]}"-*; }
start_squid() {
    local name=$1 extra=$2 dir=$scratch/squid-$1 port
    mkdir -p "$dir"
    port=$(free_port)
    printf -v "SQUID_PORT_$name" %s "$port"
    squid_service[$name]=openclawtest$$$name  # alphanumeric only
    cp "$hosts" "$dir/hosts"
    cat >"$dir/squid.conf" <<CONF
http_port 127.0.0.1:$port
hosts_file $dir/hosts
acl CONNECT method CONNECT
$extra
cache deny all
cache_mem 8 MB
memory_cache_shared off
access_log stdio:$dir/access.log
cache_log $dir/cache.log
cache_store_log none
pid_filename $dir/squid.pid
coredump_dir $dir
netdb_filename none
pinger_enable off
shutdown_lifetime 0 seconds
${squid_user:+cache_effective_user $squid_user}
CONF
    [ -n "$squid_user" ] && chown -R "$squid_user" "$dir"
    launch_squid "$name" >"$dir/start.out" 2>&1 || { fail "squid ($name) starts on 127.0.0.1:$port" "$(cat "$dir/start.out")"; return 1; }
}
# curl_reaches HOST CURL-OPTIONS...: the precondition of each proxy: curl through it (-p: a CONNECT
# tunnel) to the plain gateway as http://HOST:PORT/ gets the gateway's own answer to a plain GET (400).
curl_reaches() {
    local host=$1 answer; shift
    answer=$(curl -sS --max-time 10 -o /dev/null -w '%{http_code}' "$@" "http://$host:$PORT/" 2>&1)
    [ "$answer" = 400 ] || { echo "curl $* http://$host:$PORT/: $answer (expected the gateway's 400 to a plain GET)"; return 1; }
}
# curl_connect_status PROXY-URL CURL-OPTIONS...: the proxy's answer to curl's CONNECT to the gateway.
curl_connect_status() { curl -sS --max-time 10 -p -x "$@" -o /dev/null -w '%{http_connect}' "http://$GW:$PORT/" 2>/dev/null; }

printf '%s:%s\n' "$PROXY_USER" "$(openssl passwd -apr1 "$PROXY_PASSWORD")" >"$scratch/htpasswd"
squids=()
start_squid open 'http_access allow all' && squids+=(open)
mkdir -p "$scratch/squid-auth" && cp "$scratch/htpasswd" "$scratch/squid-auth/htpasswd"
start_squid auth "auth_param basic program $NCSA_AUTH $scratch/squid-auth/htpasswd
auth_param basic realm openclaw proxy test
acl authenticated proxy_auth REQUIRED
http_access allow authenticated
http_access deny all" && squids+=(auth)
start_squid refuse 'http_access deny CONNECT
http_access allow all' && squids+=(refuse)
OPEN=http://127.0.0.1:${SQUID_PORT_open:-0}
OPEN_LOG=$scratch/squid-open/access.log

for name in "${squids[@]}"; do
    port_var=SQUID_PORT_$name
    case $name in
        open) check "squid (open): curl -p -x tunnels to $GW:$PORT (squid resolves it; the gateway answers; CONNECT logged)" \
            eval 'curl_reaches "$GW" -p -x "$OPEN" && wait_for_count "$OPEN_LOG" "CONNECT $GW:$PORT" 1 15' ;;
        auth) check "squid (basic auth): curl with the credentials tunnels; without them, 407" eval \
            'curl_reaches "$GW" -p -x "http://127.0.0.1:${!port_var}" -U "$PROXY_USER:$PROXY_PASSWORD" &&
             { status=$(curl_connect_status "http://127.0.0.1:${!port_var}"); [ "$status" = 407 ]; } || { echo "CONNECT without credentials: $status"; false; }' ;;
        refuse) check "squid (refusing CONNECT): curl -p -x gets 403" \
            eval 'status=$(curl_connect_status "http://127.0.0.1:${!port_var}"); [ "$status" = 403 ] || { echo "CONNECT: $status"; false; }' ;;
    esac
done

# ---------------------------------------------------------------------------------------------------
# The environment's proxy (curl's and Go's conventions).
unreachable=$(free_port)
NOWHERE=http://127.0.0.1:$unreachable
if [[ " ${squids[*]} " == *" open "* ]]; then
    n=$(count_lines "$OPEN_LOG" "CONNECT $GW:$PORT")
    client $PRIVATE HTTP_PROXY="$OPEN" --url "$WS" history
    check "HTTP_PROXY: ws://$GW through squid (history; squid logged CONNECT $GW:$PORT)" through "$OPEN_LOG" "CONNECT $GW:$PORT" $((n + 1))

    n=$(count_lines "$OPEN_LOG" "CONNECT $TLS_GW:$TLS_PORT")
    client HTTPS_PROXY="$OPEN" --url "$WSS" --cacert "$pki/root.pem" history
    check "HTTPS_PROXY: wss://$TLS_GW through squid, TLS to the gateway inside the tunnel (CONNECT $TLS_GW:$TLS_PORT logged)" \
        through "$OPEN_LOG" "CONNECT $TLS_GW:$TLS_PORT" $((n + 1))
    client HTTPS_PROXY="$OPEN" --url "wss://$WRONG_GW:$TLS_PORT" --cacert "$pki/root.pem" history
    check "HTTPS_PROXY: the certificate is checked against the gateway's name ($WRONG_GW: hostname mismatch, exit 3)" \
        eval 'expect_status 3 && expect_err "hostname mismatch"'
    n=$(count_lines "$OPEN_LOG" "CONNECT $TLS_GW:$TLS_PORT")
    client https_proxy="$OPEN" --url "$WSS" --cacert "$pki/root.pem" history
    check "https_proxy (lower case): wss:// through squid" through "$OPEN_LOG" "CONNECT $TLS_GW:$TLS_PORT" $((n + 1))
    client HTTP_PROXY="$OPEN" --url "$WSS" --cacert "$pki/root.pem" history
    check "HTTP_PROXY alone is not for wss://: direct, cannot resolve" unresolved "$TLS_GW"

    n=$(count_lines "$OPEN_LOG" "CONNECT $GW:$PORT")
    client $PRIVATE ALL_PROXY="$OPEN" --url "$WS" history
    check "ALL_PROXY: used when HTTP_PROXY is unset (ws:// through squid)" through "$OPEN_LOG" "CONNECT $GW:$PORT" $((n + 1))
    n=$(count_lines "$OPEN_LOG" "CONNECT $TLS_GW:$TLS_PORT")
    client HTTPS_PROXY="$OPEN" ALL_PROXY="$NOWHERE" --url "$WSS" --cacert "$pki/root.pem" history
    check "HTTPS_PROXY wins over ALL_PROXY (which names a port nothing listens on)" through "$OPEN_LOG" "CONNECT $TLS_GW:$TLS_PORT" $((n + 1))

    client $PRIVATE HTTP_PROXY="$OPEN" NO_PROXY="$GW" --url "$WS" history
    check "NO_PROXY naming the gateway: direct, cannot resolve" unresolved "$GW"
    client $PRIVATE HTTP_PROXY="$OPEN" no_proxy="example.org, .proxy-test.internal" --url "$WS" history
    check "no_proxy with a leading-dot domain (.proxy-test.internal): its subdomain goes direct, cannot resolve" unresolved "$GW"
    client $PRIVATE HTTP_PROXY="$OPEN" NO_PROXY='*' --url "$WS" history
    check "NO_PROXY=*: direct, cannot resolve" unresolved "$GW"
    n=$(count_lines "$OPEN_LOG" "CONNECT $GW:$PORT")
    client $PRIVATE HTTP_PROXY="$OPEN" NO_PROXY="example.org,test.internal,127.0.0.1" --url "$WS" history
    check "NO_PROXY naming other hosts (example.org, test.internal): still through squid" through "$OPEN_LOG" "CONNECT $GW:$PORT" $((n + 1))
fi
client HTTP_PROXY="$NOWHERE" ALL_PROXY="$NOWHERE" --url "ws://127.0.0.1:$PORT" history
check "loopback ws://127.0.0.1 is never proxied by the environment (HTTP_PROXY, ALL_PROXY unreachable): history works" history_ok
client HTTP_PROXY="$NOWHERE" --url "ws://localhost:$PORT" history
check "loopback ws://localhost is never proxied by the environment: history works" history_ok

# ---------------------------------------------------------------------------------------------------
# Credentials, refusals, and proxies that fail.
if [[ " ${squids[*]} " == *" auth "* ]]; then
    AUTH_PORT=$SQUID_PORT_auth AUTH_LOG=$scratch/squid-auth/access.log
    n=$(count_lines "$AUTH_LOG" "CONNECT $GW:$PORT $PROXY_USER")
    client $PRIVATE HTTP_PROXY="http://$PROXY_USER:$PROXY_PASSWORD@127.0.0.1:$AUTH_PORT" --url "$WS" history
    check "basic auth: the URL's credentials are accepted (squid logged the tunnel as $PROXY_USER)" \
        eval 'through "$AUTH_LOG" "CONNECT $GW:$PORT $PROXY_USER" $((n + 1)) && no_password'
    client $PRIVATE HTTP_PROXY="http://$PROXY_USER:$PROXY_PASSWORD@127.0.0.1:$AUTH_PORT" --url "$WS" --trace history
    check "basic auth with --trace: the password is in no output" eval 'history_ok && no_password'
    client $PRIVATE HTTP_PROXY="http://127.0.0.1:$AUTH_PORT" --url "$WS" history
    check "basic auth: no credentials: exit 3, 407" proxy_error 407
    client $PRIVATE HTTP_PROXY="http://$PROXY_USER:wrong-$PROXY_PASSWORD@127.0.0.1:$AUTH_PORT" --url "$WS" --trace history
    check "basic auth: a wrong password: exit 3, 407, the password in no output (--trace)" \
        eval 'expect_status 3 && expect_err 407 && no_password'
fi
if [[ " ${squids[*]} " == *" refuse "* ]]; then
    client $PRIVATE HTTP_PROXY="http://127.0.0.1:$SQUID_PORT_refuse" --url "$WS" history
    check "a proxy refusing CONNECT: exit 3, 403" proxy_error 403
fi
if [[ " ${squids[*]} " == *" open "* ]]; then
    closed=$(free_port)
    client $PRIVATE HTTP_PROXY="$OPEN" --url "ws://$GW:$closed" history
    check "the gateway refuses the proxy's connection (squid answers 503): exit 3, 503" proxy_error 503
fi
client $PRIVATE HTTP_PROXY="$NOWHERE" --url "$WS" history
check "an unreachable proxy: exit 3, naming the proxy and 127.0.0.1:$unreachable" proxy_error proxy "127.0.0.1:$unreachable"

# fake_proxy NAME MODE: a TCP server of this suite's own (python3): silent (accepts, never answers) or
# close (reads the request, answers 200, closes the tunnel at once). Sets FAKE_PORT.
fake_proxy() {
    local out=$scratch/fake-$1.out
    python3 -u - "$2" >"$out" 2>&1 <<'PY' &
import socket, sys
mode = sys.argv[1]
server = socket.socket()
server.bind(("127.0.0.1", 0))
server.listen(16)
print("listening", server.getsockname()[1])
held = []
while True:
    conn, _ = server.accept()
    if mode == "silent":
        print("accepted")
        held.append(conn)
        continue
    head = b""
    conn.settimeout(10)
    try:
        while b"\r\n\r\n" not in head:
            data = conn.recv(4096)
            if not data:
                break
            head += data
        print("request", head.split(b"\r\n")[0].decode(errors="replace"))
        conn.sendall(b"HTTP/1.1 200 Connection established\r\n\r\n")
    except OSError:
        pass
    conn.close()
PY
    local pid=$!
    at_exit "kill $pid; wait $pid"
    wait_for_line "$out" '^listening ' 30 || return 1
    FAKE_PORT=$(sed -n 's/^listening //p' "$out")
}
if fake_proxy silent silent; then
    run_client --guard 30 $PRIVATE HTTP_PROXY="http://127.0.0.1:$FAKE_PORT" --url "$WS" --timeout 2 history
    check "a proxy that accepts and never answers: bounded by --timeout 2 (exit 3 or 5, no hang; it was asked)" \
        eval '{ [ "$STATUS" -eq 3 ] || [ "$STATUS" -eq 5 ] || { echo "exit $STATUS (124: still running after 30 s); stderr: $ERR"; false; }; } &&
              not_direct && wait_for_line "$scratch/fake-silent.out" "^accepted" 15'
else
    fail "the silent proxy starts"
fi
if fake_proxy close close; then
    client $PRIVATE HTTP_PROXY="http://127.0.0.1:$FAKE_PORT" --url "$WS" history
    check "a proxy that grants the tunnel, then closes it: exit 3 (its CONNECT was received)" \
        eval 'proxy_error && grep -qF "request CONNECT $GW:$PORT HTTP/1.1" "$scratch/fake-close.out" || { echo "the fake proxy saw: $(cat "$scratch/fake-close.out")"; false; }'
else
    fail "the closing proxy starts"
fi

# --trace shows the proxy exchange, not the password.
if [[ " ${squids[*]} " == *" open "* ]]; then
    client $PRIVATE HTTP_PROXY="$OPEN" --url "$WS" --trace history
    check "--trace: a \"dir\":\"proxy\" line shows the CONNECT" eval \
        'history_ok && grep -F "\"dir\":\"proxy\"" <<<"$ERR" | grep -qF CONNECT || { echo "stderr: $ERR"; false; }'
fi

# ---------------------------------------------------------------------------------------------------
# SOCKS5: microsocks. socks5h://: the proxy resolves the name (microsocks in the namespace that knows
# it); socks5://: the client resolves it (the client in that namespace, microsocks outside, where the
# name does not resolve). microsocks logs "connected to HOST:PORT" with what the client sent.
# start_microsocks NAME [--resolving] [microsocks options]: sets SOCKS_PORT.
start_microsocks() {
    local name=$1 wrap=() out=$scratch/microsocks-$1.out port; shift
    [ "${1:-}" = --resolving ] && { wrap=("${resolving[@]}"); shift; }
    port=$(free_port)
    "${wrap[@]}" "$MICROSOCKS" -i 127.0.0.1 -p "$port" "$@" >"$out" 2>&1 &
    local pid=$!
    at_exit "kill $pid; wait $pid"
    local output
    output=$(wait_for_port "$port" "$pid" 30) || { fail "microsocks ($name) starts" "$output" "$(cat "$out")"; return 1; }
    local credentials=()
    [ "${1:-}" = -u ] && credentials=(--proxy-user "$2:$4")
    output=$(curl_reaches 127.0.0.1 --socks5 "127.0.0.1:$port" "${credentials[@]}") ||
        { fail "microsocks ($name): curl --socks5 reaches the gateway at 127.0.0.1:$PORT" "$output"; return 1; }
    SOCKS_PORT=$port
}
if [ ! -x "$MICROSOCKS" ]; then
    skip "SOCKS5 proxies" "$MICROSOCKS is not installed (Debian: apt-get install microsocks)"
elif [ -n "${namespace_skip:-}" ]; then
    skip "SOCKS5 proxies" "$namespace_skip"
else
    if start_microsocks resolving --resolving; then
        RESOLVING_SOCKS=$SOCKS_PORT
        check "microsocks (in the namespace): curl --socks5-hostname reaches the gateway as $GW (microsocks resolves it)" \
            curl_reaches "$GW" --socks5-hostname "127.0.0.1:$RESOLVING_SOCKS"
        log=$scratch/microsocks-resolving.out
        n=$(count_lines "$log" "connected to $GW:$PORT")
        client $PRIVATE ALL_PROXY="socks5h://127.0.0.1:$RESOLVING_SOCKS" --url "$WS" history
        check "socks5h:// (ALL_PROXY): the proxy resolves $GW (microsocks was sent the name)" through "$log" "connected to $GW:$PORT" $((n + 1))
        n=$(count_lines "$log" "connected to $TLS_GW:$TLS_PORT")
        client HTTPS_PROXY="socks5h://127.0.0.1:$RESOLVING_SOCKS" --url "$WSS" --cacert "$pki/root.pem" history
        check "socks5h:// (HTTPS_PROXY): wss://$TLS_GW, TLS inside the SOCKS tunnel" through "$log" "connected to $TLS_GW:$TLS_PORT" $((n + 1))
    fi
    if start_microsocks outside; then
        OUTSIDE_SOCKS=$SOCKS_PORT
        n=$(count_lines "$scratch/microsocks-outside.out" "connected to 127.0.0.1:$PORT")
        run_client --resolving $PRIVATE ALL_PROXY="socks5://127.0.0.1:$OUTSIDE_SOCKS" --url "$WS" history
        check "socks5:// (the client in the namespace): the client resolves $GW and sends 127.0.0.1 to microsocks" \
            through "$scratch/microsocks-outside.out" "connected to 127.0.0.1:$PORT" $((n + 1))
    fi
    if start_microsocks auth --resolving -u "$PROXY_USER" -P "$PROXY_PASSWORD"; then
        AUTH_SOCKS=$SOCKS_PORT
        n=$(count_lines "$scratch/microsocks-auth.out" "connected to $GW:$PORT")
        client $PRIVATE ALL_PROXY="socks5h://$PROXY_USER:$PROXY_PASSWORD@127.0.0.1:$AUTH_SOCKS" --url "$WS" --trace history
        check "socks5h:// with credentials (username/password method): history; the password in no output (--trace)" \
            eval 'through "$scratch/microsocks-auth.out" "connected to $GW:$PORT" $((n + 1)) && no_password'
        client $PRIVATE ALL_PROXY="socks5h://127.0.0.1:$AUTH_SOCKS" --url "$WS" history
        check "socks5h:// without the credentials microsocks wants: exit 3, from the proxy (not a direct cannot resolve)" \
            eval 'expect_status 3 && not_direct'
        client $PRIVATE ALL_PROXY="socks5h://$PROXY_USER:wrong-$PROXY_PASSWORD@127.0.0.1:$AUTH_SOCKS" --url "$WS" history
        check "socks5h:// with a wrong password: exit 3, from the proxy; the password in no output" eval 'expect_status 3 && not_direct && no_password'
    fi
fi

# ---------------------------------------------------------------------------------------------------
# OpenClaw's own proxy settings (the config file; OPENCLAW_PROXY_URL). While enabled, the environment's
# proxies and NO_PROXY are ignored.
if [[ " ${squids[*]} " == *" open "* ]]; then
    config "{proxy: {enabled: true, proxyUrl: \"$OPEN\"}}"  # JSON5, as the file may be
    n=$(count_lines "$OPEN_LOG" "CONNECT $TLS_GW:$TLS_PORT")
    client HTTPS_PROXY="$NOWHERE" --url "$WSS" --cacert "$pki/root.pem" history
    check "config proxy.proxyUrl: through squid, HTTPS_PROXY (unreachable) ignored" through "$OPEN_LOG" "CONNECT $TLS_GW:$TLS_PORT" $((n + 1))
    n=$(count_lines "$OPEN_LOG" "CONNECT $GW:$PORT")
    client $PRIVATE NO_PROXY='*' --url "$WS" history
    check "config proxy.proxyUrl: NO_PROXY=* ignored (through squid)" through "$OPEN_LOG" "CONNECT $GW:$PORT" $((n + 1))
    n=$(count_lines "$OPEN_LOG" "CONNECT $GW:$PORT")
    client $PRIVATE OPENCLAW_PROXY_URL="$NOWHERE" --url "$WS" history
    check "config proxy.proxyUrl wins over OPENCLAW_PROXY_URL (unreachable)" through "$OPEN_LOG" "CONNECT $GW:$PORT" $((n + 1))

    config '{"proxy": {"enabled": true}}'
    n=$(count_lines "$OPEN_LOG" "CONNECT $GW:$PORT")
    client $PRIVATE OPENCLAW_PROXY_URL="$OPEN" HTTP_PROXY="$NOWHERE" --url "$WS" history
    check "OPENCLAW_PROXY_URL: used when proxy.proxyUrl is unset (through squid; HTTP_PROXY ignored)" through "$OPEN_LOG" "CONNECT $GW:$PORT" $((n + 1))
    client $PRIVATE HTTP_PROXY="$OPEN" --url "$WS" history
    check "proxy.enabled without a URL: exit 2 naming proxy.enabled, nothing connected" \
        eval 'expect_status 2 && expect_err proxy.enabled && [ -z "$OUT" ]'

    # loopbackMode, against ws://127.0.0.1 (a loopback gateway).
    config "{\"proxy\": {\"enabled\": true, \"proxyUrl\": \"$NOWHERE\"}}"
    client --url "ws://127.0.0.1:$PORT" history
    check "loopbackMode unset (gateway-only): ws://127.0.0.1 connects directly (the proxy is unreachable)" history_ok
    config "{\"proxy\": {\"enabled\": true, \"proxyUrl\": \"$OPEN\", \"loopbackMode\": \"gateway-only\"}}"
    n=$(count_lines "$OPEN_LOG" "CONNECT 127.0.0.1:$PORT")
    client --url "ws://127.0.0.1:$PORT" history
    status=$STATUS
    # squid logs a tunnel when it closes; a tunnel of our own after the client's, once logged, means
    # squid has handled the client's connection too, if there was one.
    marker=$(count_lines "$OPEN_LOG" "CONNECT $TLS_GW:$PORT")
    curl -s -o /dev/null -p -x "$OPEN" "http://$TLS_GW:$PORT/" 2>/dev/null
    check "loopbackMode gateway-only: ws://127.0.0.1 connects directly (no CONNECT 127.0.0.1:$PORT in squid's log)" eval \
        'STATUS=$status history_ok && wait_for_count "$OPEN_LOG" "CONNECT $TLS_GW:$PORT" $((marker + 1)) 15 &&
         [ "$(count_lines "$OPEN_LOG" "CONNECT 127.0.0.1:$PORT")" -eq "$n" ] || { echo "squid log: $(tail -n 5 "$OPEN_LOG")"; false; }'
    config "{\"proxy\": {\"enabled\": true, \"proxyUrl\": \"$OPEN\", \"loopbackMode\": \"proxy\"}}"
    client --url "ws://127.0.0.1:$PORT" history
    check "loopbackMode proxy: ws://127.0.0.1 goes through squid (CONNECT 127.0.0.1:$PORT logged)" through "$OPEN_LOG" "CONNECT 127.0.0.1:$PORT" $((n + 1))
    config "{\"proxy\": {\"enabled\": true, \"proxyUrl\": \"$OPEN\", \"loopbackMode\": \"block\"}}"
    client --url "ws://127.0.0.1:$PORT" history
    check "loopbackMode block: ws://127.0.0.1 is refused (exit 3, loopback, block)" eval 'proxy_error loopback block'
    config none
fi

# ---------------------------------------------------------------------------------------------------
# watch through squid, squid killed and started again on its port: watch reconnects and receives
# events again (a run's chat events, sent straight to the loopback gateway by another client).
watch_survives() {
    local file=$scratch/watch.out
    wait_for_line "$file" '"event":"connected"' 30 || return 1
    client --url "ws://127.0.0.1:$PORT" send "before the proxy restarts"
    expect_status 0 && wait_for_line "$file" '"state":"final".*before the proxy restarts' 30 || return 1
    stop_squid open
    wait_for_line "$file" '"event":"disconnected"' 30 || return 1
    launch_squid open || return 1
    wait_for_line "$file" '"event":"reconnected"' 30 || return 1
    kill -0 "$watch_pid" 2>/dev/null || { echo "watch ended"; return 1; }
    client --url "ws://127.0.0.1:$PORT" send "after the proxy restarted"
    expect_status 0 && wait_for_line "$file" '"state":"final".*after the proxy restarted' 30 || return 1
    kill -0 "$watch_pid" 2>/dev/null || { echo "watch ended"; return 1; }
}
if [[ " ${squids[*]} " == *" open "* ]]; then
    client_in_background watch $PRIVATE HTTP_PROXY="$OPEN" --url "$WS" watch --client-events --backoff-base "$BACKOFF"
    watch_pid=$BG_PID
    if watch_survives >"$scratch/watch-check.out" 2>&1; then
        ok "watch through squid: squid killed and restarted on its port, watch reconnects and receives events again"
    else
        fail "watch through squid: squid killed and restarted on its port, watch reconnects and receives events again" \
            "$(cat "$scratch/watch-check.out")" "watch stdout: $(tail -n 10 "$scratch/watch.out")" "watch stderr: $(tail -n 10 "$scratch/watch.err")"
    fi
    kill "$watch_pid" 2>/dev/null
    wait "$watch_pid" 2>/dev/null
fi

# ---------------------------------------------------------------------------------------------------
# An https:// proxy endpoint: stunnel (a certificate from a CA of its own) in front of the open squid,
# trusted through proxy.tls.caFile: wss:// (TLS inside TLS) and ws://; without the CA file, refused.
if [ ! -x "$STUNNEL" ]; then
    skip "https:// proxy endpoint" "$STUNNEL is not installed (Debian: apt-get install stunnel4)"
elif [[ " ${squids[*]} " != *" open "* ]]; then
    skip "https:// proxy endpoint" "the open squid behind it did not start"
elif ! "$(dirname "$0")/make-pki.sh" "$scratch/proxy-pki" p256 >"$scratch/proxy-pki.out" 2>&1; then
    fail "make the proxy's PKI" "$(cat "$scratch/proxy-pki.out")"
else
    STUNNEL_PORT=$(free_port)
    cat >"$scratch/stunnel.conf" <<CONF
foreground = yes
pid =
debug = notice
[proxy]
accept = 127.0.0.1:$STUNNEL_PORT
connect = 127.0.0.1:$SQUID_PORT_open
cert = $scratch/proxy-pki/fullchain.pem
key = $scratch/proxy-pki/key.pem
CONF
    "$STUNNEL" "$scratch/stunnel.conf" >"$scratch/stunnel.out" 2>&1 &
    stunnel_pid=$!
    at_exit "kill $stunnel_pid; wait $stunnel_pid"
    if ! output=$(wait_for_port "$STUNNEL_PORT" "$stunnel_pid" 30); then
        fail "stunnel starts" "$output" "$(cat "$scratch/stunnel.out")"
    else
        HTTPS_PROXY_URL=https://localhost:$STUNNEL_PORT
        check "stunnel: curl --proxy https://localhost:$STUNNEL_PORT (its own CA) tunnels to the gateway" \
            curl_reaches "$GW" -p --proxy "$HTTPS_PROXY_URL" --proxy-cacert "$scratch/proxy-pki/root.pem"
        config "{\"proxy\": {\"enabled\": true, \"proxyUrl\": \"$HTTPS_PROXY_URL\", \"tls\": {\"caFile\": \"$scratch/proxy-pki/root.pem\"}}}"
        n=$(count_lines "$OPEN_LOG" "CONNECT $TLS_GW:$TLS_PORT")
        client --url "$WSS" --cacert "$pki/root.pem" history
        check "https:// proxy (proxy.tls.caFile): wss://$TLS_GW through stunnel and squid, TLS to the proxy and to the gateway" \
            through "$OPEN_LOG" "CONNECT $TLS_GW:$TLS_PORT" $((n + 1))
        config "{\"proxy\": {\"enabled\": true, \"proxyUrl\": \"$HTTPS_PROXY_URL\"}}"
        client --url "$WSS" --cacert "$pki/root.pem" history
        check "https:// proxy without proxy.tls.caFile: its certificate is not trusted (exit 3 naming the proxy; --cacert is the gateway's, not the proxy's)" \
            eval 'expect_status 3 && [ -z "$OUT" ] && expect_err "the proxy localhost:$STUNNEL_PORT" && expect_err "proxy.tls.caFile"'
        # ws:// through the https:// proxy too: the tunnel's relay carries plain WebSocket frames.
        config "{\"proxy\": {\"enabled\": true, \"proxyUrl\": \"$HTTPS_PROXY_URL\", \"tls\": {\"caFile\": \"$scratch/proxy-pki/root.pem\"}}}"
        n=$(count_lines "$OPEN_LOG" "CONNECT $GW:$PORT")
        client OPENCLAW_ALLOW_INSECURE_PRIVATE_WS=1 --url "ws://$GW:$PORT" history
        check "https:// proxy (proxy.tls.caFile): ws://$GW through stunnel and squid" through "$OPEN_LOG" "CONNECT $GW:$PORT" $((n + 1))
        config none
    fi
fi
finish
