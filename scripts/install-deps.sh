#!/usr/bin/env bash
# install-deps.sh build|test: makes sure this machine has what `make demo` (build) or `make test`
# (build and test) needs, installing what is missing with apt-get: as root directly, through sudo
# otherwise; where neither can, it stops with the one command to copy. Nothing is installed when
# everything is there. The one list of what the project needs: `make demo`, `make test` and .ci/run
# all come through here.
set -euo pipefail
need=${1:-test}
case $need in build | test) ;; *) echo "usage: $0 build|test" >&2; exit 2 ;; esac

# NEED  PROBE                                  DEBIAN PACKAGE   (what uses it)
requirements() {
    cat <<'LIST'
build command:pkg-config                          pkg-config       finds OpenSSL for the build
build pkg-config:openssl                          libssl-dev       TLS, Ed25519, SHA-256
build file:libsqlite3.a                           libsqlite3-dev   the official state database (linked in)
test  command:python3                             python3          make check-layers, make bench
test  command:jq                                  jq               the README's jq recipes
test  command:openssl                             openssl          TLS test certificates
test  command:zsh                                 zsh              completion tests
test  command:fish                                fish             completion tests
test  file:/usr/share/bash-completion/bash_completion bash-completion completion tests
test  command:mandoc                              mandoc           man page lint
test  command:man                                 man-db           man page rendering
test  file:/usr/bin/time                          time             watch's peak memory test
test  file:/usr/bin/script                        bsdutils         terminal (pty) tests
test  command:lintian                             lintian          package tests
test  command:dpkg-shlibdeps                      dpkg-dev         make deb
test  command:objdump                             binutils         package tests
test  command:file                                file             package tests
test  command:systemd-analyze                     systemd          the systemd recipe's test
test  command:flock                               util-linux       the cron recipe's test
test  file:/usr/sbin/sshd                         openssh-server   SSH tunnel tests (a real sshd)
test  file:/usr/bin/ssh                           openssh-client   SSH tunnel tests (the system ssh)
test  file:/usr/sbin/nginx                        nginx-light      real-world tests: a TLS reverse proxy
test  file:/usr/sbin/haproxy                      haproxy          real-world tests: a TLS reverse proxy
test  file:/usr/sbin/dnsmasq                      dnsmasq-base     real-world tests: a DNS server
test  file:/usr/sbin/tc                           iproute2         real-world tests: namespaces, veth, netem
LIST
}

# present PROBE: whether the thing the probe names is on this machine.
present() {
    local kind=${1%%:*} what=${1#*:}
    case $kind in
        command) command -v "$what" >/dev/null 2>&1 ;;
        file)
            if [[ $what == /* ]]; then [ -e "$what" ]
            else
                # a library archive: in the multiarch directory or the compiler's search path
                local arch; arch=$(dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null || echo "$(uname -m)-linux-gnu")
                [ -e "/usr/lib/$arch/$what" ] || [ -e "/usr/lib/$what" ] || [ -e "/usr/lib64/$what" ]
            fi ;;
        pkg-config) command -v pkg-config >/dev/null 2>&1 && pkg-config --exists "$what" ;;
    esac
}

if ! command -v swift >/dev/null 2>&1; then
    echo "install-deps: swift is not on PATH: install Swift 6 from https://www.swift.org/install/ (or Debian's swiftlang) first" >&2
    exit 1
fi

missing=()
while read -r kind probe package _; do
    [ "$need" = test ] || [ "$kind" = build ] || continue
    present "$probe" || missing+=("$package")
done < <(requirements)
[ ${#missing[@]} -eq 0 ] && exit 0
mapfile -t missing < <(printf '%s\n' "${missing[@]}" | sort -u)

command="apt-get update && apt-get install -y --no-install-recommends ${missing[*]}"
if ! command -v apt-get >/dev/null 2>&1; then
    echo "install-deps: missing: ${missing[*]} (Debian package names); this is not a Debian-like system: install their equivalents, then run make again" >&2
    exit 1
fi
if [ "$(id -u)" -eq 0 ]; then
    run=()
elif command -v sudo >/dev/null 2>&1 && { [ -t 0 ] || sudo -n true 2>/dev/null; }; then
    run=(sudo)
else
    echo "install-deps: missing: ${missing[*]}; install them as root, then run make again:" >&2
    echo "  sudo sh -c '$command'" >&2
    exit 1
fi
echo "install-deps: installing ${missing[*]}" >&2
# openssh-server's debconf questions take their defaults; -qq keeps apt's progress off the log
"${run[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq
"${run[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
still=()
while read -r kind probe package _; do
    [ "$need" = test ] || [ "$kind" = build ] || continue
    present "$probe" || still+=("$package")
done < <(requirements)
if [ ${#still[@]} -gt 0 ]; then
    echo "install-deps: still missing after apt-get install: ${still[*]}" >&2
    exit 1
fi
