#!/usr/bin/env bash
# trust-files.sh: the system's bundle file as containers change it, with the hashed /etc/ssl/certs left as
# it is: a private root appended to /etc/ssl/certs/ca-certificates.crt without update-ca-certificates (the
# usual Dockerfile line `cat my-root.pem >> /etc/ssl/certs/ca-certificates.crt`), a bundle mounted over that
# path (a Kubernetes / OpenShift ConfigMap), and SSL_CERT_FILE and NODE_EXTRA_CA_CERTS both naming it.
# curl, Python and Go trust such a root; `openclaw history` must too, with no --cacert and no pin.
#
# The host is never changed: each run is `unshare --mount` with the modified bundle bind-mounted over the
# system's in a private mount namespace, which dies with the one process it runs (the client, exec'd).
# Needs root and a mount namespace; a skip line otherwise.
source "$(dirname "$0")/lib.sh"

system_bundle=/etc/ssl/certs/ca-certificates.crt
if [ "$(id -u)" -ne 0 ]; then
    skip "trust files" "needs root: a bundle is bind-mounted over $system_bundle in a private mount namespace"
    finish
fi
if namespace_error=$(unshare --mount --propagation private true 2>&1); [ -n "$namespace_error" ]; then
    skip "trust files" "no private mount namespace: $namespace_error"
    finish
fi
if [ ! -f "$system_bundle" ]; then
    skip "trust files" "this machine has no $system_bundle to change"
    finish
fi

# Nothing may stay mounted over the host's bundle: checked after every run and at exit.
host_mounted() { awk -v path="$system_bundle" '$2 == path { found = 1 } END { exit !found }' /proc/self/mounts; }
at_exit "host_mounted && umount $(printf %q "$system_bundle")"
before=$(sha256sum <"$system_bundle")

pki=$scratch/pki
"$(dirname "$0")/make-pki.sh" "$pki" p256 >/dev/null 2>&1 || { fail "make the PKI"; finish; }
start_simulator gw --tls-cert "$pki/fullchain.pem" --tls-key "$pki/key.pem" || { fail "start the wss:// simulator"; finish; }
url=wss://localhost:$SIM_PORT_gw

# with_bundle FILE [VAR=VALUE...]: `openclaw history` seeing FILE at the system bundle's path (nothing
# mounted when FILE is "-"), in an environment of only PATH, HOME, the state directory and the variables
# given; sets OUT, ERR, STATUS.
with_bundle() {
    local bundle=$1 home=$scratch/home variables=(); shift
    while [[ $# -gt 0 && $1 =~ ^[A-Z_][A-Z0-9_]*= ]]; do variables+=("$1"); shift; done
    mkdir -p "$home"
    # shellcheck disable=SC2016 # expanded by the inner shell
    env -i PATH=/usr/bin:/bin HOME="$home" OPENCLAW_STATE_DIR="$home/.openclaw" "${variables[@]}" \
        unshare --mount --propagation private sh -c '[ "$0" = - ] || mount --bind "$0" "$1" || exit 99; shift; exec "$@"' \
        "$bundle" "$system_bundle" "$OPENCLAW" --token "$TOKEN" --url "$url" history >"$scratch/out" 2>"$scratch/err"
    STATUS=$?
    OUT=$(cat "$scratch/out") ERR=$(cat "$scratch/err")
    if host_mounted; then echo "trust-files: $system_bundle is still mounted on the host" >&2; STATUS=98; fi
}
refused() {
    expect_status 3 && [ -z "$OUT" ] && expect_err "certificate verify failed for localhost" &&
        expect_err "the chain ends at Test Root X1, an authority this machine does not trust"
}

# The test root is in no hashed directory of this machine: only the bundle can make it trusted.
root_hash=$(openssl x509 -noout -subject_hash -in "$pki/root.pem")
if [ -e "/etc/ssl/certs/$root_hash.0" ]; then
    fail "the test root's subject hash $root_hash is already in /etc/ssl/certs (a leftover?)"
    finish
fi

# (c) first: the machine as it is does not trust the private root.
with_bundle -
check "the system store without the private root: refused with exit 3" refused

# (a) appended to a copy of the system's bundle, the hash links untouched.
appended=$scratch/appended.crt
{ sed -e '$a\' "$system_bundle"; cat "$pki/root.pem"; } >"$appended"
with_bundle "$appended"
check "a private root appended to the system bundle (no rehash) is trusted" history_ok

# (b) a bundle of only the private root mounted over the system bundle (a ConfigMap over the file).
with_bundle "$pki/root.pem"
check "a bundle holding only the private root, mounted over the system bundle, is trusted" history_ok

# The same bundle path mounted with a copy lacking the root: still refused (the mount itself changes nothing).
cp "$system_bundle" "$scratch/unchanged.crt"
with_bundle "$scratch/unchanged.crt"
check "a copy of the system bundle without the root, mounted the same way: refused with exit 3" refused

# (d) SSL_CERT_FILE and NODE_EXTRA_CA_CERTS naming the same file (once directly, once through OpenSSL's
# /usr/lib/ssl/cert.pem link where there is one): read once, trusted, no warning.
with_bundle "$appended" SSL_CERT_FILE="$system_bundle" NODE_EXTRA_CA_CERTS="$system_bundle"
check "SSL_CERT_FILE and NODE_EXTRA_CA_CERTS both naming the appended bundle: trusted" \
    eval 'history_ok && [ -z "$ERR" ] || { echo "stderr: $ERR"; false; }'
if [ -L /usr/lib/ssl/cert.pem ]; then
    with_bundle "$appended" SSL_CERT_FILE=/usr/lib/ssl/cert.pem NODE_EXTRA_CA_CERTS="$system_bundle"
    check "SSL_CERT_FILE through /usr/lib/ssl/cert.pem and NODE_EXTRA_CA_CERTS the bundle: trusted" history_ok
fi

check "the host's bundle is unchanged and nothing is mounted over it" \
    eval '! host_mounted && [ "$(sha256sum <"$system_bundle")" = "$before" ]'
finish
