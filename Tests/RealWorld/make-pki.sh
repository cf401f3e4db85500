#!/usr/bin/env bash
# make-pki.sh DIR [rsa|p256|p384]: a public-style PKI made with openssl, the way Let's Encrypt's is
# laid out: a root CA, an intermediate CA it signs, and a leaf for localhost / 127.0.0.1 / ::1 and
# gw.example.test signed by the intermediate. Nothing is checked in and nothing expires during a test run.
#
# DIR/root.pem                the trust anchor (what a system store or --cacert holds)
# DIR/fullchain.pem, key.pem  leaf + intermediate, as a server sends them (certbot's fullchain.pem)
# DIR/leaf-only.pem           the leaf alone (a server that forgets its intermediate)
# DIR/expired.pem, notyet.pem expired / not yet valid leaves (+ intermediate), same key
# DIR/wrongname.pem           a valid leaf for another name (+ intermediate), same key
# DIR/selfsigned.pem          a self-signed leaf for the right names, same key
# DIR/other-root.pem          an unrelated root (trusting it is trusting the wrong CA)
# DIR/certs/                  a hashed directory (openssl rehash) holding root.pem, as /etc/ssl/certs does
set -euo pipefail
dir=$1
kind=${2:-p256}
mkdir -p "$dir"
cd "$dir"

newkey() { # FILE
    case $kind in
        rsa) openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out "$1" 2>/dev/null ;;
        p256) openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$1" ;;
        p384) openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-384 -out "$1" ;;
        *) echo "make-pki: unknown key kind $kind" >&2; exit 2 ;;
    esac
}
digest=sha256
[ "$kind" = p384 ] && digest=sha384

cat >ca.cnf <<CNF
[ca]
default_ca = ca_section
[ca_section]
database = index.txt
new_certs_dir = issued
serial = serial
default_md = $digest
policy = any
unique_subject = no
copy_extensions = none
[any]
commonName = supplied
[root_ext]
basicConstraints = critical, CA:true
keyUsage = critical, keyCertSign, cRLSign
subjectKeyIdentifier = hash
[intermediate_ext]
basicConstraints = critical, CA:true, pathlen:0
keyUsage = critical, keyCertSign, cRLSign, digitalSignature
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid
[leaf_ext]
basicConstraints = critical, CA:false
keyUsage = critical, digitalSignature, keyEncipherment
extendedKeyUsage = serverAuth
subjectAltName = DNS:localhost, DNS:gw.example.test, IP:127.0.0.1, IP:::1
authorityKeyIdentifier = keyid
[wrongname_ext]
basicConstraints = critical, CA:false
keyUsage = critical, digitalSignature, keyEncipherment
extendedKeyUsage = serverAuth
subjectAltName = DNS:elsewhere.example.test
authorityKeyIdentifier = keyid
CNF
rm -rf issued index.txt serial && mkdir issued && : >index.txt && echo 1000 >serial

# sign CSR CAKEY CACERT EXT OUT [startdate enddate]
sign() {
    local dates=(-days 30)
    [ $# -ge 7 ] && dates=(-startdate "$6" -enddate "$7")
    openssl ca -batch -config ca.cnf -notext -in "$1" -keyfile "$2" -cert "$3" -extensions "$4" -out "$5" \
        "${dates[@]}" 2>/dev/null
}

newkey root.key
openssl req -new -x509 -key root.key -subj "/O=OpenClaw Test PKI/CN=Test Root X1" -days 60 -$digest \
    -addext "basicConstraints=critical,CA:true" -addext "keyUsage=critical,keyCertSign,cRLSign" -out root.pem
newkey other-root.key
openssl req -new -x509 -key other-root.key -subj "/O=Somebody Else/CN=Other Root" -days 60 -$digest \
    -addext "basicConstraints=critical,CA:true" -addext "keyUsage=critical,keyCertSign,cRLSign" -out other-root.pem

newkey intermediate.key
openssl req -new -key intermediate.key -subj "/O=OpenClaw Test PKI/CN=Test Intermediate R3" -out intermediate.csr
sign intermediate.csr root.key root.pem intermediate_ext intermediate.pem

newkey key.pem
openssl req -new -key key.pem -subj "/CN=gw.example.test" -out leaf.csr
sign leaf.csr intermediate.key intermediate.pem leaf_ext leaf.pem
sign leaf.csr intermediate.key intermediate.pem leaf_ext expired-leaf.pem 20200101000000Z 20200201000000Z
sign leaf.csr intermediate.key intermediate.pem leaf_ext notyet-leaf.pem 20900101000000Z 20900201000000Z
sign leaf.csr intermediate.key intermediate.pem wrongname_ext wrongname-leaf.pem
openssl req -new -x509 -key key.pem -subj "/CN=gw.example.test" -days 30 -$digest \
    -addext "subjectAltName=DNS:localhost,DNS:gw.example.test,IP:127.0.0.1,IP:::1" -out selfsigned.pem

cat leaf.pem intermediate.pem >fullchain.pem
cp leaf.pem leaf-only.pem
cat expired-leaf.pem intermediate.pem >expired.pem
cat notyet-leaf.pem intermediate.pem >notyet.pem
cat wrongname-leaf.pem intermediate.pem >wrongname.pem

mkdir -p certs && cp root.pem certs/test-root.pem && openssl rehash certs 2>/dev/null
