#!/usr/bin/env bash
# distro-roots.sh: the portable tarball's static binary in bare roots, one per distribution's CA layout.
# Each root holds only /openclaw (the static binary), /proc (proc mounted), /tmp and the CA files the
# distribution's own tooling leaves there, the test PKI's root added the way an administrator adds one.
# `chroot ROOT /openclaw --url wss://127.0.0.1:PORT history` must verify the gateway's chain with no
# --cacert and no pin, in an environment of only HOME and OPENCLAW_STATE_DIR (in the root's /tmp). Also:
# a root with no CA certificates is refused with exit 3, SSL_CERT_FILE / SSL_CERT_DIR work in a bare root, and
# a scratch image given Debian's /etc/ssl/certs by a multi-stage COPY (links dangling, bundle whole) verifies.
#
# OPENCLAW_STATIC  the static binary (default: the release build); a skip line when it is missing or dynamic.
# Needs root (chroot, mount -t proc). Every proc mount is unmounted at exit (lazily if busy) before lib.sh
# deletes the scratch directory, and that deletion is refused while anything under it is still mounted.
#
# The layouts, and where they come from:
# - Debian 12 / Ubuntu: ca-certificates' update-ca-certificates (/usr/sbin/update-ca-certificates,
#   ca-certificates 20230311+deb12u1, read on this Debian 12 host): /etc/ssl/certs/NAME.pem are links to
#   /usr/share/ca-certificates/mozilla/NAME.crt or /usr/local/share/ca-certificates/NAME.crt, `openssl
#   rehash .` makes HASH.0 -> NAME.pem, and the bundle /etc/ssl/certs/ca-certificates.crt concatenates them
#   (`sed -e '$a\'`). The openssl package (3.0.x) adds /usr/lib/ssl/certs -> /etc/ssl/certs and
#   /usr/lib/ssl/cert.pem -> /etc/ssl/certs/ca-certificates.crt (OpenSSL's own defaults, OPENSSLDIR=/usr/lib/ssl).
# - Fedora 37-40, RHEL 9: ca-certificates.spec 2023.2.60-2024.2.68 and its update-ca-trust (mirror
#   codacy-open-source-projects-scans/ca-certificates): p11-kit `trust extract` writes
#   /etc/pki/ca-trust/extracted/pem/tls-ca-bundle.pem (--comment: "# label" before each certificate) and
#   pem/directory-hash/ (NAME.pem, HASH.0 -> NAME.pem for the new and the old (MD5) subject hash: p11-kit
#   trust/extract-openssl.c p11_openssl_symlink), plus directory-hash/ca-certificates.crt and ca-bundle.crt ->
#   ../tls-ca-bundle.pem; the package links /etc/ssl/certs -> /etc/pki/ca-trust/extracted/pem/directory-hash,
#   /etc/ssl/cert.pem, /etc/pki/tls/cert.pem and /etc/pki/tls/certs/ca-bundle.crt -> tls-ca-bundle.pem,
#   /etc/pki/tls/certs/ca-bundle.trust.crt -> extracted/openssl/ca-bundle.trust.crt. Anchors an administrator
#   adds go to /etc/pki/ca-trust/source/anchors/.
# - Fedora 41-43: ca-certificates.spec 2024.2.69_v8.0.401-3 (mirror r0x0d/fedora-rpm-specs; changelog
#   "update-ca-trust: copy directory-hash symlinks to /etc/pki/tls/certs"): /etc/ssl/certs -> /etc/pki/tls/certs,
#   which holds ca-bundle.crt and ca-certificates.crt -> tls-ca-bundle.pem and the hash links of
#   directory-hash (Fedora's OpenSSL has OPENSSLDIR=/etc/pki/tls, so that is its CApath). The links are
#   modelled naming directory-hash's files by absolute path: the form of the links update-ca-trust writes
#   there could not be read (only the spec's %ghost list); they must resolve for Fedora's own OpenSSL.
#   (https://fedoraproject.org/wiki/Changes/droppingOfCertPemFile then removes the bundles from Fedora 44.)
# - CentOS 7 (and RHEL 7/8): no hashed directory; /etc/pki/tls/certs/ca-bundle.crt ->
#   /etc/pki/ca-trust/extracted/pem/tls-ca-bundle.pem and ca-bundle.trust.crt -> extracted/openssl/...,
#   /etc/pki/tls/cert.pem -> tls-ca-bundle.pem, /etc/ssl/certs -> ../pki/tls/certs (the EL spec's "ln -s
#   ../pki/tls/certs"), beside the openssl package's Makefile, make-dummy-cert and renew-dummy-cert. Go's
#   root_linux.go: "/etc/pki/ca-trust/extracted/pem/tls-ca-bundle.pem // CentOS/RHEL 7".
# - openSUSE / SLES: openSUSE/ca-certificates (ca-certificates.spec, etc_ssl.run, certbundle.run,
#   openssl.run): `trust extract --format=pem-directory-hash` into /var/lib/ca-certificates/pem (mode 555),
#   /etc/ssl/certs -> ../../var/lib/ca-certificates/pem (etc_ssl.run insists on that relative link),
#   /var/lib/ca-certificates/ca-bundle.pem (a "do not edit" header, then a pem-bundle) with
#   /etc/ssl/ca-bundle.pem -> ../../var/lib/ca-certificates/ca-bundle.pem, and openssl-directory
#   (BEGIN TRUSTED CERTIFICATE) in /var/lib/ca-certificates/openssl. Anchors: /etc/pki/trust/anchors/.
# - Alpine, base image: only ca-certificates-bundle: /etc/ssl/certs/ca-certificates.crt (a file) and
#   /etc/ssl/cert.pem -> certs/ca-certificates.crt (Go: "/etc/ssl/cert.pem // Alpine Linux"); not hashed.
# - Alpine with `apk add ca-certificates`: alpinelinux/ca-certificates update-ca.c links
#   /etc/ssl/certs/ca-cert-NAME.pem -> /usr/share/ca-certificates/mozilla/NAME.crt (or
#   /usr/local/share/ca-certificates/NAME.crt) and writes the bundle; the package's
#   /etc/ca-certificates/update.d/certhash hook (c_rehash) adds HASH.0 -> ca-cert-NAME.pem.
# - Arch Linux: ca-certificates-utils' update-ca-trust (as eweOS/packages carries it): `trust extract` into
#   /etc/ca-certificates/extracted/tls-ca-bundle.pem and cadir/ (pem-directory-hash), every cadir entry
#   linked into /etc/ssl/certs and made relative (../../ca-certificates/extracted/cadir/...; a hash link there
#   is a link to cadir's own HASH.0 -> NAME.pem), /etc/ssl/certs/ca-certificates.crt ->
#   ../../ca-certificates/extracted/tls-ca-bundle.pem, /etc/ssl/cert.pem -> certs/ca-certificates.crt.
#   Anchors: /etc/ca-certificates/trust-source/anchors/.
# - The multi-stage image: `FROM alpine AS certs; RUN apk add ca-certificates; FROM busybox (or scratch);
#   COPY --from=certs /etc/ssl/certs /etc/ssl/certs` is a common Dockerfile (e.g. dottgonzo/
#   docker-alpine-ca-certificates, carlpett/zookeeper_exporter); COPY keeps links as links. Modelled with
#   Debian's /etc/ssl/certs (whose hash links are certain, see above).
# In every store the unrelated "Other Root" of the test PKI stands in for the distribution's public roots,
# so bundles really are concatenations and directories hold more than the one root that matters.
source "$(dirname "$0")/lib.sh"

OPENCLAW_STATIC=${OPENCLAW_STATIC:-$repo/.build/release/openclaw}
exec 9>&2 # lib.sh runs the cleanups with their output thrown away; fd 9 still reaches the caller

# static_binary FILE: an ELF executable without a program interpreter (static or static-PIE), the only kind
# that runs in a root without ld.so and libc.
static_binary() {
    [ -f "$1" ] && [ "$(head -c 4 "$1" | od -An -c | tr -d ' ')" = '177ELF' ] || return 1
    if command -v readelf >/dev/null; then
        ! readelf -lW "$1" 2>/dev/null | grep -q 'program interpreter'
    else
        file -L "$1" | grep -qE 'statically linked|static-pie linked'
    fi
}
if ! static_binary "$OPENCLAW_STATIC"; then
    [ -e "$OPENCLAW_STATIC" ] && why="is not a static binary" || why="does not exist"
    skip "distro roots" "OPENCLAW_STATIC=$OPENCLAW_STATIC $why (the portable tarball's static binary is needed: it runs alone in a root)"
    finish
fi
if [ "$(id -u)" -ne 0 ]; then
    skip "distro roots" "needs root: chroot(2) into each distribution's root and mount -t proc in it"
    finish
fi

# Nothing may stay mounted. Registered first, so it runs last: if a mount under $scratch survived the
# unmounts, keep the directory (lib.sh would delete it next, through the mount) and fail the suite.
keep_scratch_if_mounted() {
    if awk -v dir="$scratch/" 'index($2 "/", dir) == 1 { found = 1 } END { exit !found }' /proc/self/mounts; then
        echo "distro-roots: still mounted under $scratch (left in place, not deleted):" >&9
        awk -v dir="$scratch/" 'index($2 "/", dir) == 1' /proc/self/mounts >&9
        exit 1
    fi
}
at_exit keep_scratch_if_mounted
# unmount_proc DIR: unmounts DIR if it is a mount point; lazily when it is busy (it leaves the tree at once).
unmount_proc() {
    mountpoint -q "$1" || return 0
    umount "$1" 2>/dev/null || umount -l "$1"
}

chroot_bin=$(command -v chroot) || { skip "distro roots" "needs chroot (coreutils)"; finish; }
probe=$scratch/probe-proc
mkdir -p "$probe"
at_exit "unmount_proc $(printf %q "$probe")"
if ! mount_error=$(mount -t proc proc "$probe" 2>&1); then
    skip "distro roots" "cannot mount proc in a root: $mount_error"
    finish
fi
unmount_proc "$probe"

pki=$scratch/pki
"$(dirname "$0")/make-pki.sh" "$pki" p256 >/dev/null 2>&1 || { fail "make the PKI"; finish; }
start_simulator gw --tls-cert "$pki/fullchain.pem" --tls-key "$pki/key.pem" || { fail "start the wss:// simulator"; finish; }
port=$SIM_PORT_gw
root_pem=$pki/root.pem      # Test Root X1: the chain's root
public_pem=$pki/other-root.pem # Other Root: stands in for the distribution's public roots

# root_realpath ROOT PATH: PATH with every symbolic link resolved as inside ROOT (absolute targets from ROOT).
root_realpath() {
    local root=$1 rest=${2#/} resolved="" part target hops=0
    while [ -n "$rest" ]; do
        part=${rest%%/*}
        if [ "$rest" = "$part" ]; then rest=""; else rest=${rest#*/}; fi
        case $part in "" | .) continue ;; ..) resolved=${resolved%/*}; continue ;; esac
        if [ -L "$root$resolved/$part" ]; then
            ((++hops > 40)) && return 1
            target=$(readlink "$root$resolved/$part")
            case $target in
                /*) resolved="" rest=${target#/}${rest:+/$rest} ;;
                *) rest=$target${rest:+/$rest} ;;
            esac
        else
            resolved=$resolved/$part
        fi
    done
    echo "${resolved:-/}"
}
# dangling_links ROOT: prints the links of ROOT's layout that do not resolve inside ROOT (none: success).
dangling_links() {
    local root=$1 link bad=0
    while IFS= read -r link; do
        local path=${link#"$root"} resolved
        resolved=$(root_realpath "$root" "$path") && [ -e "$root$resolved" ] && continue
        echo "$path -> $(readlink "$link") does not resolve inside the root"
        bad=1
    done < <(find "$root" -path "$root/proc" -prune -o -type l -print)
    return $bad
}
# listing ROOT: the root's tree with link targets (the evidence when a check fails).
listing() {
    (cd "$1" && find . -path ./proc -prune -o -printf '%M %p -> %l\n' | sed 's/ -> $//' | sort -k2)
}

# cn CERT: the certificate's common name (p11-kit's label for it).
cn() { openssl x509 -noout -subject -nameopt multiline -in "$1" | sed -n 's/^ *commonName *= //p'; }
# p11kit_bundle FILE CERT...: `trust extract --format=pem-bundle --comment`: "# label" before each certificate,
# a blank line between them.
p11kit_bundle() {
    local file=$1 cert first=1; shift
    mkdir -p "$(dirname "$file")" && : >"$file"
    for cert; do
        { [ $first = 1 ] || echo; echo "# $(cn "$cert")"; cat "$cert"; } >>"$file"
        first=0
    done
}
# plain_bundle FILE CERT...: certificates concatenated (update-ca-certificates: each ends with a newline).
plain_bundle() {
    local file=$1; shift
    mkdir -p "$(dirname "$file")" && sed -e '$a\' "$@" >"$file"
}
# p11kit_hash_dir DIR CERT...: `trust extract --format=pem-directory-hash`: LABEL.pem (spaces as _) per
# certificate, HASH.0 -> LABEL.pem for its subject hash (what `openssl rehash` makes) and its old MD5 hash.
p11kit_hash_dir() {
    local dir=$1 cert; shift
    mkdir -p "$dir"
    for cert; do cp "$cert" "$dir/$(cn "$cert" | tr ' ' _).pem"; done
    openssl rehash "$dir" || return 1
    for cert; do
        local old n=0
        old=$(openssl x509 -noout -subject_hash_old -in "$cert")
        while [ -e "$dir/$old.$n" ] || [ -L "$dir/$old.$n" ]; do n=$((n + 1)); done
        ln -s "$(cn "$cert" | tr ' ' _).pem" "$dir/$old.$n"
    done
}
# rehash_in_root ROOT DIR: the HASH.0 links `openssl rehash DIR` makes inside ROOT, where DIR's NAME.pem are
# links absolute in ROOT (/usr/share/...): a copy with those links resolved is rehashed on the host and its
# hash links (HASH.0 -> NAME.pem, relative) are copied in.
rehash_in_root() {
    local root=$1 dir=$2 stage entry resolved
    stage=$(mktemp -d "$scratch/rehash.XXXXXX")
    for entry in "$root$dir"/*.pem; do
        resolved=$(root_realpath "$root" "$dir/${entry##*/}") && cp "$root$resolved" "$stage/${entry##*/}" || return 1
    done
    openssl rehash "$stage" || return 1
    find "$stage" -type l -regextype posix-extended -regex '.*/[0-9a-f]{8}\.[0-9]+' -exec cp -P {} "$root$dir/" \;
}

# The layouts (ROOT is the root's directory on this machine; the paths after it are the root's own).
debian_layout() {
    local r=$1
    mkdir -p "$r/usr/share/ca-certificates/mozilla" "$r/usr/local/share/ca-certificates" "$r/etc/ssl/certs" "$r/usr/lib/ssl"
    cp "$public_pem" "$r/usr/share/ca-certificates/mozilla/Other_Root.crt"
    cp "$root_pem" "$r/usr/local/share/ca-certificates/openclaw-test-root.crt"
    ln -s /usr/share/ca-certificates/mozilla/Other_Root.crt "$r/etc/ssl/certs/Other_Root.pem"
    ln -s /usr/local/share/ca-certificates/openclaw-test-root.crt "$r/etc/ssl/certs/openclaw-test-root.pem"
    rehash_in_root "$r" /etc/ssl/certs || return 1
    plain_bundle "$r/etc/ssl/certs/ca-certificates.crt" "$public_pem" "$root_pem"
    ln -s /etc/ssl/certs "$r/usr/lib/ssl/certs"
    ln -s /etc/ssl/certs/ca-certificates.crt "$r/usr/lib/ssl/cert.pem"
}
# ca-trust extracted/ as update-ca-trust writes it (Fedora, RHEL, CentOS), with or without directory-hash.
ca_trust_extracted() {
    local r=$1 hashed=$2 x=$1/etc/pki/ca-trust/extracted cert
    mkdir -p "$r/etc/pki/ca-trust/source/anchors" "$x/openssl" "$x/pem" "$r/etc/pki/tls/certs"
    cp "$root_pem" "$r/etc/pki/ca-trust/source/anchors/openclaw-test-root.pem"
    p11kit_bundle "$x/pem/tls-ca-bundle.pem" "$public_pem" "$root_pem"
    for cert in "$public_pem" "$root_pem"; do
        echo "# $(cn "$cert")"
        openssl x509 -in "$cert" -trustout -addtrust serverAuth -setalias "$(cn "$cert")"
    done >"$x/openssl/ca-bundle.trust.crt"
    if [ "$hashed" = hashed ]; then
        p11kit_hash_dir "$x/pem/directory-hash" "$public_pem" "$root_pem" || return 1
        ln -s ../tls-ca-bundle.pem "$x/pem/directory-hash/ca-certificates.crt"
        ln -s ../tls-ca-bundle.pem "$x/pem/directory-hash/ca-bundle.crt"
        chmod 555 "$x/pem/directory-hash"
    fi
}
fedora_layout() { # Fedora 37-40, RHEL 9
    local r=$1
    ca_trust_extracted "$r" hashed || return 1
    mkdir -p "$r/etc/ssl"
    ln -s /etc/pki/ca-trust/extracted/pem/directory-hash "$r/etc/ssl/certs"
    ln -s /etc/pki/ca-trust/extracted/pem/tls-ca-bundle.pem "$r/etc/ssl/cert.pem"
    ln -s /etc/pki/ca-trust/extracted/pem/tls-ca-bundle.pem "$r/etc/pki/tls/cert.pem"
    ln -s /etc/pki/ca-trust/extracted/pem/tls-ca-bundle.pem "$r/etc/pki/tls/certs/ca-bundle.crt"
    ln -s /etc/pki/ca-trust/extracted/openssl/ca-bundle.trust.crt "$r/etc/pki/tls/certs/ca-bundle.trust.crt"
}
fedora41_layout() { # Fedora 41-43
    local r=$1 link hashdir=/etc/pki/ca-trust/extracted/pem/directory-hash
    ca_trust_extracted "$r" hashed || return 1
    mkdir -p "$r/etc/ssl"
    ln -s /etc/pki/tls/certs "$r/etc/ssl/certs"
    ln -s /etc/pki/ca-trust/extracted/pem/tls-ca-bundle.pem "$r/etc/ssl/cert.pem"
    ln -s /etc/pki/ca-trust/extracted/pem/tls-ca-bundle.pem "$r/etc/pki/tls/cert.pem"
    ln -s /etc/pki/ca-trust/extracted/pem/tls-ca-bundle.pem "$r/etc/pki/tls/certs/ca-bundle.crt"
    ln -s /etc/pki/ca-trust/extracted/pem/tls-ca-bundle.pem "$r/etc/pki/tls/certs/ca-certificates.crt"
    for link in "$r$hashdir"/*.[0-9]; do
        ln -s "$hashdir/$(readlink "$link")" "$r/etc/pki/tls/certs/${link##*/}"
    done
}
centos7_layout() {
    local r=$1 file
    ca_trust_extracted "$r" flat || return 1
    mkdir -p "$r/etc/ssl"
    ln -s ../pki/tls/certs "$r/etc/ssl/certs"
    ln -s /etc/pki/ca-trust/extracted/pem/tls-ca-bundle.pem "$r/etc/pki/tls/cert.pem"
    ln -s /etc/pki/ca-trust/extracted/pem/tls-ca-bundle.pem "$r/etc/pki/tls/certs/ca-bundle.crt"
    ln -s /etc/pki/ca-trust/extracted/openssl/ca-bundle.trust.crt "$r/etc/pki/tls/certs/ca-bundle.trust.crt"
    for file in Makefile make-dummy-cert renew-dummy-cert; do echo "# openssl package: $file" >"$r/etc/pki/tls/certs/$file"; done
}
opensuse_layout() {
    local r=$1 state=$1/var/lib/ca-certificates cert
    mkdir -p "$r/etc/pki/trust/anchors" "$r/etc/ssl" "$state/openssl"
    cp "$root_pem" "$r/etc/pki/trust/anchors/openclaw-test-root.pem"
    p11kit_hash_dir "$state/pem" "$public_pem" "$root_pem" || return 1
    chmod 555 "$state/pem"
    for cert in "$public_pem" "$root_pem"; do
        openssl x509 -in "$cert" -trustout -addtrust serverAuth -setalias "$(cn "$cert")" >"$state/openssl/$(cn "$cert" | tr ' ' _).pem"
    done
    openssl rehash "$state/openssl" || return 1
    { printf '#\n# automatically created by /usr/lib/ca-certificates/update.d/certbundle.run. Do not edit!\n#\n'
      sed -e '$a\' "$public_pem" "$root_pem"; } >"$state/ca-bundle.pem"
    ln -s ../../var/lib/ca-certificates/pem "$r/etc/ssl/certs"
    ln -s ../../var/lib/ca-certificates/ca-bundle.pem "$r/etc/ssl/ca-bundle.pem"
}
alpine_layout() { # the base image: ca-certificates-bundle alone
    local r=$1
    plain_bundle "$r/etc/ssl/certs/ca-certificates.crt" "$public_pem" "$root_pem"
    ln -s certs/ca-certificates.crt "$r/etc/ssl/cert.pem"
}
alpine_full_layout() { # apk add ca-certificates: update-ca-certificates, then its certhash hook
    local r=$1
    mkdir -p "$r/usr/share/ca-certificates/mozilla" "$r/usr/local/share/ca-certificates" "$r/etc/ssl/certs"
    cp "$public_pem" "$r/usr/share/ca-certificates/mozilla/Other_Root.crt"
    echo mozilla/Other_Root.crt >"$r/etc/ca-certificates.conf"
    cp "$root_pem" "$r/usr/local/share/ca-certificates/openclaw-test-root.crt"
    ln -s /usr/share/ca-certificates/mozilla/Other_Root.crt "$r/etc/ssl/certs/ca-cert-Other_Root.pem"
    ln -s /usr/local/share/ca-certificates/openclaw-test-root.crt "$r/etc/ssl/certs/ca-cert-openclaw-test-root.pem"
    plain_bundle "$r/etc/ssl/certs/ca-certificates.crt" "$public_pem" "$root_pem"
    ln -s certs/ca-certificates.crt "$r/etc/ssl/cert.pem"
    rehash_in_root "$r" /etc/ssl/certs
}
arch_layout() {
    local r=$1 x=$1/etc/ca-certificates/extracted entry
    mkdir -p "$r/etc/ca-certificates/trust-source/anchors" "$r/etc/ssl/certs"
    cp "$root_pem" "$r/etc/ca-certificates/trust-source/anchors/openclaw-test-root.crt"
    p11kit_bundle "$x/tls-ca-bundle.pem" "$public_pem" "$root_pem"
    p11kit_hash_dir "$x/cadir" "$public_pem" "$root_pem" || return 1
    for entry in "$x/cadir"/*; do
        ln -s "../../ca-certificates/extracted/cadir/${entry##*/}" "$r/etc/ssl/certs/${entry##*/}"
    done
    chmod 555 "$x/cadir"
    ln -s ../../ca-certificates/extracted/tls-ca-bundle.pem "$r/etc/ssl/certs/ca-certificates.crt"
    ln -s certs/ca-certificates.crt "$r/etc/ssl/cert.pem"
}
# A scratch image given Debian's /etc/ssl/certs by a multi-stage build (`COPY --from=certs /etc/ssl/certs
# /etc/ssl/certs`, a common Dockerfile pattern: COPY keeps links as links): NAME.pem and HASH.0 dangle (their
# /usr/share/ca-certificates targets stayed behind), the bundle ca-certificates.crt is a whole file. Go's
# rule (first bundle file found, plus every certificate directory) verifies here, as the bundle holds the root.
copied_certs_layout() {
    local r=$1 stage=$scratch/debian-stage
    debian_layout "$stage" && mkdir -p "$r/etc/ssl" && cp -a "$stage/etc/ssl/certs" "$r/etc/ssl/certs"
}
bundle_only_layout() { # not a distribution: one bundle and one hashed directory, for SSL_CERT_FILE / SSL_CERT_DIR
    local r=$1
    plain_bundle "$r/certs/bundle.pem" "$public_pem" "$root_pem"
    p11kit_hash_dir "$r/certs/hashed" "$public_pem" "$root_pem"
}
no_layout() { :; }

# make_root NAME LAYOUT [dangling]: $scratch/roots/NAME with only /openclaw, /tmp, LAYOUT's files and /proc
# (proc mounted, unmounted at exit); sets ROOT. Fails, printing why, when a link of the layout does not
# resolve (unless the layout is meant to have dangling links). Not in a subshell: the unmount it registers
# must reach lib.sh's cleanups.
make_root() {
    ROOT=$scratch/roots/$1
    mkdir -p "$ROOT/proc" "$ROOT/tmp" && chmod 1777 "$ROOT/tmp" && cp "$OPENCLAW_STATIC" "$ROOT/openclaw" || return 1
    "$2" "$ROOT" >"$scratch/layout.err" 2>&1 || { cat "$scratch/layout.err"; return 1; }
    [ "${3:-}" = dangling ] || dangling_links "$ROOT" || return 1
    at_exit "unmount_proc $(printf %q "$ROOT/proc")"
    mount -t proc proc "$ROOT/proc"
}
# run_in ROOT [VAR=VALUE...]: `openclaw history` against the simulator, run as the only program in ROOT with
# an environment of only HOME, OPENCLAW_STATE_DIR (the root's /tmp) and the variables given; sets OUT, ERR, STATUS.
run_in() {
    local root=$1 variables=(); shift
    while [[ $# -gt 0 && $1 =~ ^[A-Z_][A-Z0-9_]*= ]]; do variables+=("$1"); shift; done
    env -i HOME=/tmp OPENCLAW_STATE_DIR=/tmp/openclaw-state "${variables[@]}" \
        "$chroot_bin" "$root" /openclaw --url "wss://127.0.0.1:$port" --token "$TOKEN" history >"$scratch/out" 2>"$scratch/err"
    STATUS=$?
    OUT=$(cat "$scratch/out") ERR=$(cat "$scratch/err")
}
# verified: the last run printed the history, its chain verified; otherwise shows the root it ran in.
verified() { history_ok || { echo "the root:"; listing "$ROOT"; return 1; }; }

# distro NAME LAYOUT DESCRIPTION [dangling]: the static client in that root verifies the chain.
distro() {
    local name=$1 layout=$2 description=$3
    if ! make_root "$name" "$layout" "${4:-}" >"$scratch/why" 2>&1; then fail "$description: build the root" "$(cat "$scratch/why")"; return; fi
    run_in "$ROOT"
    check "$description: the static client verifies the chain from the system store" verified
    unmount_proc "$ROOT/proc"
}

distro debian debian_layout "Debian 12 / Ubuntu (hashed /etc/ssl/certs, /usr/lib/ssl/certs -> it)"
distro fedora fedora_layout "Fedora 37-40 / RHEL 9 (/etc/ssl/certs -> ca-trust's directory-hash)"
distro fedora41 fedora41_layout "Fedora 41-43 (/etc/ssl/certs -> /etc/pki/tls/certs holding directory-hash's links)"
distro centos7 centos7_layout "CentOS 7 (no hashed directory; /etc/pki/tls/certs/ca-bundle.crt -> tls-ca-bundle.pem)"
distro opensuse opensuse_layout "openSUSE (/etc/ssl/certs -> ../../var/lib/ca-certificates/pem)"
distro alpine alpine_layout "Alpine base image (/etc/ssl/certs/ca-certificates.crt alone, not hashed)"
distro alpine-full alpine_full_layout "Alpine with ca-certificates (ca-cert-*.pem links, c_rehash'd)"
distro arch arch_layout "Arch Linux (/etc/ssl/certs links into /etc/ca-certificates/extracted/cadir)"
distro copied-certs copied_certs_layout "a scratch image given Debian's /etc/ssl/certs by COPY (hash links dangle, ca-certificates.crt whole)" dangling

# No CA certificates anywhere (a scratch image without any): refused with exit 3, naming the root the chain
# ends at, saying that no store was found, and the ways out.
if make_root none no_layout >"$scratch/why" 2>&1; then
    run_in "$ROOT"
    check "a root with no CA certificates at all: exit 3, no store found, a way out offered" \
        eval 'expect_status 3 && [ -z "$OUT" ] && expect_err "certificate verify failed for 127.0.0.1" &&
              expect_err "the chain ends at Test Root X1, an authority this machine does not trust" &&
              expect_err "no CA store was found on this machine (install the ca-certificates package, or name a bundle with SSL_CERT_FILE)" &&
              expect_err "use --cacert or --tls-fingerprint"'
    unmount_proc "$ROOT/proc"
else
    fail "a root with no CA certificates: build the root" "$(cat "$scratch/why")"
fi

# The variables in a bare root (nothing at any of the distribution paths).
if make_root variables bundle_only_layout >"$scratch/why" 2>&1; then
    run_in "$ROOT" SSL_CERT_FILE=/certs/bundle.pem
    check "a bare root: SSL_CERT_FILE naming a bundle in it verifies the chain" verified
    run_in "$ROOT" SSL_CERT_DIR=/certs/hashed
    check "a bare root: SSL_CERT_DIR naming a hashed directory in it verifies the chain" verified
    unmount_proc "$ROOT/proc"
else
    fail "a bare root with a bundle: build the root" "$(cat "$scratch/why")"
fi
finish
