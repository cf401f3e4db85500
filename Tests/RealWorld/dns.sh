#!/usr/bin/env bash
# dns.sh: host names resolved for real. A dnsmasq started here is the only DNS server the client sees
# (a private /etc/resolv.conf, nsswitch.conf and hosts in a mount namespace of its own, as root): a
# name only it knows, an IPv6-only name, a name whose first address refuses, a name that does not
# exist (NXDOMAIN), /etc/hosts and nsswitch.conf; for the dynamic build and the static one, whose
# glibc is linked in (packaging/README.md, Platforms: the static binaries and NSS).
#
# OPENCLAW_STATIC  the static release build, tested beside OPENCLAW (default: .build/release/openclaw)
# DNSMASQ          the DNS server (default: /usr/sbin/dnsmasq, Debian's dnsmasq-base)
source "$(dirname "$0")/lib.sh"
OPENCLAW_STATIC=${OPENCLAW_STATIC:-$repo/.build/release/openclaw}
DNSMASQ=${DNSMASQ:-/usr/sbin/dnsmasq}

# What stops the whole suite: a skip line naming the cause.
if [ "$(id -u)" -ne 0 ]; then
    skip "real name resolution" "needs root: the client sees its own /etc/resolv.conf through a bind mount in a private mount namespace"
    finish
fi
if ! why=$(unshare --mount --propagation private mount --bind /dev/null /etc/resolv.conf 2>&1); then
    skip "real name resolution" "no private mount namespace here (unshare --mount, mount --bind): ${why:-unknown error}"
    finish
fi
if [ ! -x "$DNSMASQ" ]; then
    skip "real name resolution" "no DNS server to run: $DNSMASQ is missing (Debian: apt-get install dnsmasq-base)"
    finish
fi

# link_kind BINARY: dynamic (it names a program interpreter, the dynamic loader) or static.
link_kind() {
    python3 - "$1" <<'PY'
import struct, sys
elf = open(sys.argv[1], "rb").read(1 << 16)
order = "<" if elf[5] == 1 else ">"
if elf[4] == 2: phoff, = struct.unpack_from(order + "Q", elf, 32); size, count = struct.unpack_from(order + "HH", elf, 54)
else: phoff, = struct.unpack_from(order + "I", elf, 28); size, count = struct.unpack_from(order + "HH", elf, 42)
types = [struct.unpack_from(order + "I", elf, phoff + i * size)[0] for i in range(count)]
print("dynamic" if 3 in types else "static")  # PT_INTERP
PY
}
binaries=("$OPENCLAW")
if [ "$(link_kind "$OPENCLAW")" = dynamic ]; then
    if [ ! -x "$OPENCLAW_STATIC" ]; then
        skip "the static build" "no static binary at $OPENCLAW_STATIC (set OPENCLAW_STATIC to the release build)"
    elif [ "$(link_kind "$OPENCLAW_STATIC")" != static ]; then
        skip "the static build" "OPENCLAW_STATIC=$OPENCLAW_STATIC is dynamically linked"
    else
        binaries+=("$OPENCLAW_STATIC")
    fi
fi

# The test's DNS server: authoritative for every name (--address=/#/: NXDOMAIN for any name it was not
# given, so no search domain of this machine turns a miss into "try again"), no upstream, no
# /etc/hosts, no config file; each query logged to $dns_log. It binds port 53 (resolv.conf knows no
# other port) on one 127.53.0.N address only: the first that nothing else holds.
dns_log=$scratch/dnsmasq.log
dns_addr=
for n in 1 2 3 4 5 6 7 8 9; do
    rm -f "$dns_log"
    "$DNSMASQ" --no-daemon --no-resolv --no-hosts --conf-file=/dev/null --pid-file= --user=root \
        --listen-address="127.53.0.$n" --bind-interfaces --port=53 --log-queries --log-facility="$dns_log" \
        --address=/#/ \
        --host-record=gw.example.internal,127.0.0.1 \
        --host-record=v6.example.internal,::1 \
        --host-record=two.example.internal,127.0.0.2 --host-record=two.example.internal,127.0.0.1 \
        --host-record=gw.example.test,127.0.0.1 \
        >"$scratch/dnsmasq-$n.out" 2>&1 &
    pid=$!
    # Started (its sockets bound before it logs so) or gone (the address is taken: try the next).
    start=$SECONDS
    while kill -0 "$pid" 2>/dev/null && ! grep -q 'started, version' "$dns_log" 2>/dev/null && ((SECONDS - start < 30)); do
        sleep 0.05
    done
    if kill -0 "$pid" 2>/dev/null && grep -q 'started, version' "$dns_log"; then
        at_exit "kill $pid; wait $pid"
        dns_addr=127.53.0.$n
        break
    fi
    kill "$pid" 2>/dev/null
    wait "$pid" 2>/dev/null
    grep -q 'Address already in use' "$scratch/dnsmasq-$n.out" || break
done
if [ -z "$dns_addr" ]; then
    fail "dnsmasq serves DNS on a 127.53.0.N address, port 53" "$(cat "$scratch"/dnsmasq-*.out 2>/dev/null)"
    finish
fi

# ask NAME: one A query straight to dnsmasq, waiting for its answer. dnsmasq logs queries in the order
# it handles them, so once it answered this one, its log holds every query the client made before.
ask() {
    python3 - "$1" "$dns_addr" <<'PY'
import socket, struct, sys
name, server = sys.argv[1], sys.argv[2]
query = struct.pack(">HHHHHH", 0x0dd5, 0x0100, 1, 0, 0, 0)
query += b"".join(bytes([len(label)]) + label.encode() for label in name.split(".")) + b"\0" + struct.pack(">HH", 1, 1)
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.settimeout(5)
for attempt in range(6):
    s.sendto(query, (server, 53))
    try:
        s.recv(512)
        sys.exit(0)
    except socket.timeout:
        pass
sys.exit("no answer from " + server)
PY
}
ask ready.example.internal || { fail "dnsmasq on $dns_addr answers"; finish; }
mark=0
# since_mark: the log lines dnsmasq wrote since the last `named` call, once it has caught up.
since_mark() {
    ask sync.example.internal >&2 || return 1
    tail -n +$((mark + 1)) "$dns_log"
}
# asked NAME [TYPES]: the client asked dnsmasq for NAME (A or AAAA, or the TYPES regex given).
asked() {
    local lines; lines=$(since_mark) || return 1
    grep -qE "query\[(${2:-A|AAAA})\] ${1//./\\.} from" <<<"$lines" || { echo "dnsmasq was not asked for $1 (${2:-A|AAAA}); its log since:"; echo "$lines"; return 1; }
}
# not_asked NAME: the client did not ask dnsmasq for NAME.
not_asked() {
    local lines; lines=$(since_mark) || return 1
    ! grep -qE "query\[[A-Z]+\] ${1//./\\.} from" <<<"$lines" || { echo "dnsmasq was asked for $1:"; echo "$lines"; return 1; }
}
# answered NAME TEXT: dnsmasq's answer for NAME was TEXT (NXDOMAIN, NODATA-IPv4, an address).
answered() {
    local lines; lines=$(since_mark) || return 1
    grep -qE "config ${1//./\\.} is $2\$" <<<"$lines" || { echo "dnsmasq did not answer $1 with $2; its log since:"; echo "$lines"; return 1; }
}

# The machine the client sees: only dnsmasq in resolv.conf, glibc's own hosts line, localhost alone in
# /etc/hosts (whatever this machine's own files say, systemd-resolved or LDAP included).
etc=$scratch/etc
mkdir -p "$etc"
printf 'nameserver %s\n' "$dns_addr" >"$etc/resolv.conf"
printf 'passwd: files\ngroup: files\nhosts: files dns\n' >"$etc/nsswitch.conf"
printf '127.0.0.1 localhost\n::1 localhost ip6-localhost\n' >"$etc/hosts"
# named [--nsswitch FILE] [--hosts FILE] [--gai FILE] [--trace FILE] BINARY [VAR=VALUE...] ARGS...: as
# lib.sh's `client` (a private home, the test token, only the environment given; sets OUT, ERR and
# STATUS), in a private mount namespace with those files bound over /etc's (strace's connect(2) and
# openat(2) calls in FILE with --trace). The namespace, and so every mount, ends with the client. A
# client still running after 60 s is stopped (exit 124): a hang fails, it does not stall the suite.
mounting='while [ "$1" != -- ]; do mount --bind "$1" "$2" || exit 125; shift 2; done; shift; exec "$@"'
named() {
    local binds=("$etc/resolv.conf" /etc/resolv.conf) nsswitch=$etc/nsswitch.conf hosts=$etc/hosts trace=() variables=()
    local home=$scratch/home
    while :; do
        case $1 in
            --nsswitch) nsswitch=$2 ;;
            --hosts) hosts=$2 ;;
            --gai) binds+=("$2" /etc/gai.conf) ;;
            --trace) trace=(strace -f -qq -e trace=connect,openat -o "$2") ;;
            *) break ;;
        esac
        shift 2
    done
    binds+=("$nsswitch" /etc/nsswitch.conf "$hosts" /etc/hosts)
    local binary=$1; shift
    while [[ $# -gt 0 && $1 =~ ^[A-Z_][A-Z0-9_]*= ]]; do variables+=("$1"); shift; done
    mkdir -p "$home"
    mark=$(wc -l <"$dns_log")
    env -i PATH=/usr/bin:/bin HOME="$home" OPENCLAW_STATE_DIR="$home/.openclaw" "${variables[@]}" \
        timeout -k 5 60 unshare --mount --propagation private sh -c "$mounting" sh "${binds[@]}" -- \
        "${trace[@]}" "$binary" --token "$TOKEN" "$@" >"$scratch/out" 2>"$scratch/err"
    STATUS=$?
    OUT=$(cat "$scratch/out") ERR=$(cat "$scratch/err")
}
# one_line_error TEXT: the last call printed nothing on stdout and exactly one line on stderr, holding TEXT.
one_line_error() {
    [ -z "$OUT" ] && [ "$(wc -l <<<"$ERR")" -eq 1 ] || { echo "expected one line on stderr and none on stdout; stdout: $OUT; stderr: $ERR"; return 1; }
    expect_err "$1"
}

start_simulator v4 || { fail "simulator on 127.0.0.1"; finish; }
port=$SIM_PORT_v4
# A plaintext ws:// name must be loopback by its name or, with OPENCLAW_ALLOW_INSECURE_PRIVATE_WS=1,
# private by its name (.internal): the rule is the name's, not what DNS says (see below).
private=OPENCLAW_ALLOW_INSECURE_PRIVATE_WS=1

# IPv6 loopback: a gateway on ::1, when this machine has it.
if why=$(python3 -c 'import socket; socket.socket(socket.AF_INET6).bind(("::1", 0))' 2>&1 | tail -n 1); then
    start_simulator v6 --host ::1 || fail "simulator on ::1"
else
    v6_skip="IPv6 loopback (::1) is not usable here: $why"
fi

# wss:// to a name from DNS: the certificate (make-pki.sh) is for gw.example.test among others.
pki=$scratch/pki
if "$(dirname "$0")/make-pki.sh" "$pki" p256 >"$scratch/pki.out" 2>&1; then
    start_simulator tls --tls-cert "$pki/fullchain.pem" --tls-key "$pki/key.pem" || fail "simulator with TLS"
else
    fail "make the PKI" "$(cat "$scratch/pki.out")"
fi

# The name with two addresses: 127.0.0.2 (nothing listens on $port there: it refuses) and 127.0.0.1
# (the simulator). Left alone, getaddrinfo puts 127.0.0.1 first whatever order dnsmasq answers in
# (RFC 6724 rule 9, the longest prefix shared with the source address 127.0.0.1), so the refusal would
# never be tried first. The order is made deterministic instead: a private /etc/gai.conf gives
# 127.0.0.2 a higher precedence than any other address (rule 6 comes before rule 9); glibc's default
# table otherwise. getaddrinfo in the same namespace (Python's: the client's hints, no AI_ADDRCONFIG,
# which `getent ahosts` adds) shows the order the resolver gives, strace the order of the client's
# connect(2) calls.
cat >"$etc/gai-refusal-first.conf" <<'GAI'
precedence ::1/128 50
precedence ::/0 40
precedence 2002::/16 30
precedence ::/96 20
precedence ::ffff:0:0/96 10
precedence ::ffff:127.0.0.2/128 60
GAI
refused_first() {
    local order
    order=$(unshare --mount --propagation private sh -c "$mounting" sh "$etc/resolv.conf" /etc/resolv.conf \
        "$etc/gai-refusal-first.conf" /etc/gai.conf "$etc/nsswitch.conf" /etc/nsswitch.conf "$etc/hosts" /etc/hosts \
        -- python3 -c 'import socket; print(*(a[4][0] for a in socket.getaddrinfo("two.example.internal", 1, 0, socket.SOCK_STREAM)))' 2>&1)
    [ "$order" = "127.0.0.2 127.0.0.1" ] || { echo "getaddrinfo's order: $order"; return 1; }
    if (exec 3<>"/dev/tcp/127.0.0.2/$port") 2>/dev/null; then echo "something answers on 127.0.0.2:$port"; return 1; fi
}
check "two.example.internal: getaddrinfo lists 127.0.0.2 (refuses on port $port) before 127.0.0.1 (the gateway)" refused_first
# tried_in_order TRACE: the client's first TCP connect to $port (a failed connect(2): the
# non-blocking one, EINPROGRESS or ECONNREFUSED; getaddrinfo's own UDP probes succeed) went to
# 127.0.0.2, and a later one to 127.0.0.1.
tried_in_order() {
    local first; first=$(grep -n "htons($port).*= -1 E" "$1" | head -n 1)
    grep -q '127\.0\.0\.2' <<<"$first" || { echo "the first connect to port $port was not to 127.0.0.2:"; grep 'connect(' "$1"; return 1; }
    tail -n +"${first%%:*}" "$1" | grep -q "htons($port), sin_addr=inet_addr(\"127\.0\.0\.1\")" || { echo "no connect to 127.0.0.1 after it:"; grep 'connect(' "$1"; return 1; }
}

# /etc/hosts and nsswitch.conf.
printf '127.0.0.1 localhost\n127.0.0.1 hosts-only.example.internal\n' >"$etc/hosts-with-name"
printf 'passwd: files\ngroup: files\nhosts: dns\n' >"$etc/nsswitch-dns-only.conf"
# nss-resolve(8)'s recommended line: modules that are not installed here are passed over (UNAVAIL).
printf 'passwd: files\ngroup: files\nhosts: mymachines resolve [!UNAVAIL=return] files myhostname dns\n' >"$etc/nsswitch-resolved.conf"
# hesiod: an installed NSS module (glibc's own) with no hosts functions.
printf 'passwd: files\ngroup: files\nhosts: hesiod files dns\n' >"$etc/nsswitch-hesiod.conf"
libdirs=(/lib/x86_64-linux-gnu /lib/aarch64-linux-gnu /usr/lib/x86_64-linux-gnu /usr/lib/aarch64-linux-gnu /lib64 /usr/lib64 /lib /usr/lib)
installed_module() { local d; for d in "${libdirs[@]}"; do [ -e "$d/libnss_$1.so.2" ] && return 0; done; return 1; }
# loads_modules TRACE: the client opened libnss_hesiod.so.2 and a libc.so.6 (openat(2) calls in TRACE), but
# no libnss_files or libnss_dns: those two are built into glibc.
loads_modules() {
    grep -qE 'libnss_hesiod\.so\.2", .* = [0-9]' "$1" && grep -qE '/libc\.so\.6", .* = [0-9]' "$1" \
        || { echo "libnss_hesiod.so.2 or libc.so.6 not opened:"; grep -E 'openat.*\.so' "$1"; return 1; }
    ! grep -qE 'libnss_(files|dns)\.so' "$1" || { echo "files or dns loaded from the system:"; grep libnss_ "$1"; return 1; }
}

for binary in "${binaries[@]}"; do
    kind=$(link_kind "$binary")

    # 1. A name only dnsmasq knows.
    named "$binary" "$private" --url "ws://gw.example.internal:$port" history
    check "$kind: gw.example.internal (A 127.0.0.1 from dnsmasq only) resolves; history works" eval 'history_ok && asked gw.example.internal A'
    if [ -n "${SIM_PORT_tls:-}" ]; then
        named "$binary" --url "wss://gw.example.test:$SIM_PORT_tls" --cacert "$pki/root.pem" history
        check "$kind: wss://gw.example.test, resolved by dnsmasq, verifies against the certificate's name" eval 'history_ok && asked gw.example.test A'
    fi
    # ws:// is judged by the name (as the official client judges it), not by the address DNS gives.
    named "$binary" --url "ws://gw.example.test:$port" history
    check "$kind: ws://gw.example.test is refused as plaintext (exit 2) though DNS says 127.0.0.1" eval 'expect_status 2 && one_line_error "refusing plaintext ws://gw.example.test:$port"'

    # 2. An IPv6-only name.
    if [ -n "${v6_skip:-}" ]; then
        skip "$kind: v6.example.internal (AAAA ::1 only) reaches a gateway on ::1" "$v6_skip"
    elif [ -n "${SIM_PORT_v6:-}" ]; then
        named "$binary" "$private" --url "ws://v6.example.internal:$SIM_PORT_v6" history
        check "$kind: v6.example.internal (AAAA ::1, no A record) reaches a gateway on ::1" eval 'history_ok && asked v6.example.internal AAAA && answered v6.example.internal NODATA-IPv4'
    fi

    # 3. The first address refuses, the second answers.
    named --gai "$etc/gai-refusal-first.conf" "$binary" "$private" --url "ws://two.example.internal:$port" history
    check "$kind: two.example.internal: 127.0.0.2 refuses, the client goes on to 127.0.0.1; history works" eval 'history_ok && asked two.example.internal A'
    if command -v strace >/dev/null; then
        named --gai "$etc/gai-refusal-first.conf" --trace "$scratch/connects-$kind" "$binary" "$private" --url "ws://two.example.internal:$port" history
        check "$kind: two.example.internal: connect(2) went to 127.0.0.2 first, then 127.0.0.1 (strace)" eval 'history_ok && tried_in_order "$scratch/connects-$kind"'
    else
        skip "$kind: two.example.internal: connect(2) went to 127.0.0.2 first (strace)" "strace is not installed"
    fi

    # 4. A name that does not exist: exit 3 (README: cannot connect), one line, getaddrinfo's words.
    named "$binary" "$private" --url "ws://nx.example.internal:$port" history
    check "$kind: nx.example.internal (NXDOMAIN): exit 3, one line \"cannot resolve\"" eval 'expect_status 3 && one_line_error "cannot resolve nx.example.internal: Name or service not known" && answered nx.example.internal NXDOMAIN'
    # A ws:// URL the plaintext rule would refuse is resolved first: the typo is the news.
    named "$binary" --url "ws://nx.example.test:$port" history
    check "$kind: ws://nx.example.test (NXDOMAIN) is reported unresolvable (exit 3), not as plaintext" eval 'expect_status 3 && one_line_error "cannot resolve nx.example.test: Name or service not known" && answered nx.example.test NXDOMAIN'

    # /etc/hosts and the order nsswitch.conf gives.
    named --hosts "$etc/hosts-with-name" "$binary" "$private" --url "ws://hosts-only.example.internal:$port" history
    check "$kind: /etc/hosts answers first (hosts: files dns): DNS is not asked" eval 'history_ok && not_asked hosts-only.example.internal'
    named --hosts "$etc/hosts-with-name" --nsswitch "$etc/nsswitch-dns-only.conf" "$binary" "$private" --url "ws://hosts-only.example.internal:$port" history
    check "$kind: nsswitch.conf \"hosts: dns\" is obeyed: /etc/hosts is passed over, NXDOMAIN, exit 3" eval 'expect_status 3 && one_line_error "cannot resolve hosts-only.example.internal" && answered hosts-only.example.internal NXDOMAIN'
    if installed_module resolve || installed_module mymachines || installed_module myhostname; then
        skip "$kind: nss-resolve(8)'s hosts line without its modules falls through to DNS" "systemd's NSS modules are installed here"
    else
        named --nsswitch "$etc/nsswitch-resolved.conf" "$binary" "$private" --url "ws://gw.example.internal:$port" history
        check "$kind: nss-resolve(8)'s hosts line, its modules not installed: files and dns still answer" eval 'history_ok && asked gw.example.internal A'
    fi
    # The static binary's catch: glibc linked in still dlopen()s every module but files and dns from
    # the system's library directory, and the system's libc.so.6 with it (it works while that glibc is
    # the one linked in; glibc warns of this at link time).
    if [ "$kind" = static ]; then
        if ! command -v strace >/dev/null; then
            skip "static: another NSS module is loaded from the system" "strace is not installed"
        elif ! installed_module hesiod; then
            skip "static: another NSS module is loaded from the system" "libnss_hesiod.so.2 (glibc's) is not installed"
        else
            named --nsswitch "$etc/nsswitch-hesiod.conf" --trace "$scratch/opens" "$binary" "$private" --url "ws://gw.example.internal:$port" history
            check "static: \"hosts: hesiod files dns\": libnss_hesiod.so.2 and the system's libc.so.6 are dlopen()ed, files and dns are built in; history works" eval 'history_ok && loads_modules "$scratch/opens"'
        fi
    fi
done
finish
