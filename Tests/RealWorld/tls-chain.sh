#!/usr/bin/env bash
# tls-chain.sh: wss:// against a gateway whose certificate comes from a public-style CA (root ->
# intermediate -> leaf, the server sending its chain), for RSA, P-256 and P-384: every source of
# trust (--cacert, SSL_CERT_FILE, SSL_CERT_DIR, NODE_EXTRA_CA_CERTS, the system's store) and every
# usual refusal (expired, not yet valid, wrong name, unknown root, missing intermediate, self-signed),
# each with exit 3 and a sentence that says what is wrong.
source "$(dirname "$0")/lib.sh"

for kind in ${TLS_KINDS:-rsa p256 p384}; do
    pki=$scratch/pki-$kind
    "$(dirname "$0")/make-pki.sh" "$pki" "$kind" || { fail "$kind: make the PKI"; continue; }
    start_simulator "$kind" --tls-cert "$pki/fullchain.pem" --tls-key "$pki/key.pem" || { fail "$kind: simulator"; continue; }
    port_var=SIM_PORT_$kind
    url=wss://localhost:${!port_var}

    # The regression of 2026-11-23: every CA signature read as "too weak" after the short start-up.
    client --url "$url" --cacert "$pki/root.pem" history
    check "$kind: --cacert with the root verifies the chain" history_ok
    client SSL_CERT_FILE="$pki/root.pem" --url "$url" history
    check "$kind: SSL_CERT_FILE verifies the chain" history_ok
    client SSL_CERT_DIR="$pki/certs" --url "$url" history
    check "$kind: SSL_CERT_DIR (a hashed directory) verifies the chain" history_ok
    client NODE_EXTRA_CA_CERTS="$pki/root.pem" --url "$url" history
    check "$kind: NODE_EXTRA_CA_CERTS verifies the chain" history_ok
    client --url "wss://127.0.0.1:${!port_var}" --cacert "$pki/root.pem" history
    check "$kind: an IP address in the certificate verifies" history_ok
    client --url "$url" history
    check "$kind: an unknown root is refused with exit 3" eval 'expect_status 3 && expect_err "an authority this machine does not trust"'
done

# The refusals, each against its own server (P-256 PKI).
pki=$scratch/pki-p256
refusal() { # NAME CERT TEXT [client args...]
    local name=$1 cert=$2 text=$3; shift 3
    start_simulator "$name" --tls-cert "$pki/$cert" --tls-key "$pki/key.pem" || { fail "$name: simulator"; return; }
    local port_var=SIM_PORT_$name
    client --url "wss://localhost:${!port_var}" "$@" history
    check "refused, exit 3: $name" eval 'expect_status 3 && expect_err "certificate verify failed for localhost" && expect_err "$text" && [ -z "$OUT" ]'
}
if [ -f "$pki/root.pem" ]; then
    refusal expired expired.pem "certificate has expired: \"gw.example.test\" was valid until" --cacert "$pki/root.pem"
    refusal not_yet_valid notyet.pem "certificate is not yet valid: \"gw.example.test\" is valid from" --cacert "$pki/root.pem"
    refusal wrong_name wrongname.pem "hostname mismatch: the certificate is for another name" --cacert "$pki/root.pem"
    refusal missing_intermediate leaf-only.pem "the server sent only its own certificate, issued by Test Intermediate R3" --cacert "$pki/root.pem"
    refusal self_signed selfsigned.pem "self-signed certificate: \"gw.example.test\" signs itself" --cacert "$pki/root.pem"
    refusal other_root fullchain.pem "the chain ends at Test Root X1, an authority this machine does not trust" --cacert "$pki/other-root.pem"

    # NODE_EXTRA_CA_CERTS that cannot be read: Node's rule, a warning and the other sources.
    client NODE_EXTRA_CA_CERTS="$scratch/missing.pem" SSL_CERT_FILE="$pki/root.pem" --url "wss://localhost:$SIM_PORT_p256" history
    check "an unreadable NODE_EXTRA_CA_CERTS is a warning, not a failure" eval 'history_ok && expect_err "warning: ignoring extra certs from NODE_EXTRA_CA_CERTS="'
    # --cacert that cannot be read is the user's own mistake: an error.
    client --url "wss://localhost:$SIM_PORT_p256" --cacert "$scratch/missing.pem" history
    check "an unreadable --cacert is an error" eval '[ "$STATUS" -ne 0 ] && expect_err "missing.pem"'
    # A pin replaces chain checks: an expired certificate is accepted by its fingerprint.
    fingerprint=$(openssl x509 -noout -fingerprint -sha256 -in "$pki/expired-leaf.pem" | sed 's/.*=//')
    client --url "wss://localhost:$SIM_PORT_expired" --tls-fingerprint "$fingerprint" history
    check "a pinned fingerprint accepts the expired leaf it names" history_ok
fi

# The system's store, as a machine has it: a private /etc/ssl/certs (a mount namespace) holding the
# test root, hashed as update-ca-certificates leaves it, and its bundle file.
namespace_error=$(unshare --mount --propagation private true 2>&1) || true
if [ "$(id -u)" -eq 0 ] && [ -z "$namespace_error" ] && [ -f "$pki/root.pem" ]; then
    store=$scratch/system-certs
    mkdir -p "$store" && cp "$pki/certs/"* "$store/" && cp "$pki/root.pem" "$store/ca-certificates.crt"
    home=$scratch/home
    in_store() { # the client, seeing $store as /etc/ssl/certs (and OpenSSL's /usr/lib/ssl/certs link to it)
        env -i PATH=/usr/bin:/bin HOME="$home" OPENCLAW_STATE_DIR="$home/.openclaw" "$@" \
            unshare --mount --propagation private sh -c 'mount --bind "$0" /etc/ssl/certs && exec "$@"' \
            "$store" "$OPENCLAW" --token "$TOKEN" --url "wss://localhost:$SIM_PORT_p256" history >"$scratch/out" 2>"$scratch/err"
        STATUS=$? OUT=$(cat "$scratch/out") ERR=$(cat "$scratch/err")
    }
    in_store
    check "the system's hashed /etc/ssl/certs verifies the chain" history_ok
    rm "$store/"*.0
    in_store
    check "without hash links, the system's bundle verifies the chain" history_ok
else
    skip "the system's store" "showing the client another /etc/ssl/certs needs root and a private mount namespace: ${namespace_error:-not root}"
fi
finish
