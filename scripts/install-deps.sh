#!/usr/bin/env bash
# install-deps.sh build|release|bench|test: makes sure this machine has what a debug build (`make demo`),
# a release link (make release, install, dist, deb), `make bench` or `make test` needs, installing
# what is missing with apt-get: as root directly, through sudo otherwise; where neither can, it stops
# with the one command to copy. Nothing is installed when everything is there. Besides the project's own
# list below, it checks that the Swift toolchain really runs (its programs load libraries such as
# libncurses, libcurl and libxml2 that a bare system lacks) and that static links find the C++ runtime.
# The one list of what the project needs: every make target that builds comes through here.
set -euo pipefail
need=${1:-test}
case $need in build | release | bench | test) ;; *) echo "usage: $0 build|release|bench|test" >&2; exit 2 ;; esac

# NEED  PROBE                                  DEBIAN PACKAGE   (what uses it); test and bench include release, release includes build
requirements() {
    cat <<'LIST'
build command:pkg-config                          pkg-config       finds OpenSSL for the build
build pkg-config:openssl                          libssl-dev       TLS, Ed25519, SHA-256
build file:libsqlite3.a                           libsqlite3-dev   the official state database (linked in)
test  command:python3                             python3          make check-layers, make bench
bench command:node                               nodejs           make bench: the Node side-by-side
bench file:/usr/share/nodejs/ws/package.json     node-ws          make bench: the Node client's WebSocket
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
release command:dpkg-shlibdeps                   dpkg-dev         make deb
test  command:objdump                             binutils         package tests
test  command:file                                file             package tests
test  command:systemd-analyze                     systemd          the systemd recipe's test
test  command:flock                               util-linux       the cron recipe's test
test  file:/usr/sbin/sshd                         openssh-server   SSH tunnel tests (a real sshd)
test  file:/usr/bin/ssh                           openssh-client   SSH tunnel tests (the system ssh)
test  file:libnss_wrapper.so                      libnss-wrapper   SSH tunnel tests (a test home for ssh)
test  file:/usr/sbin/nginx                        nginx-light      real-world tests: a TLS reverse proxy
test  file:/usr/sbin/haproxy                      haproxy          real-world tests: a TLS reverse proxy
test  file:/usr/sbin/dnsmasq                      dnsmasq-base     real-world tests: a DNS server
test  file:/usr/sbin/tc                           iproute2         real-world tests: namespaces, veth, netem
test  file:/usr/sbin/squid                        squid            real-world tests: a forward proxy (CONNECT, basic auth, 403)
test  file:/usr/bin/microsocks                    microsocks       real-world tests: a SOCKS5 proxy (socks5://, socks5h://, credentials)
test  file:/usr/bin/stunnel4                      stunnel4         real-world tests: an https:// proxy endpoint (TLS to the proxy)
test  command:curl                                curl             real-world tests: each forward proxy's sanity check
test  command:mmdebstrap                          mmdebstrap       make debsrc-check: the clean Debian 13 roots
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

# wanted KIND: whether a requirement of KIND belongs to this run's need.
wanted() {
    case $need:$1 in *:build | release:release | bench:release | bench:bench | test:release | test:test) return 0 ;; *) return 1 ;; esac
}

if ! command -v swift >/dev/null 2>&1; then
    echo "install-deps: swift is not on PATH: install Swift 6 from https://www.swift.org/install/ (or Debian's swiftlang) first" >&2
    exit 1
fi
toolchain=$(dirname "$(readlink -f "$(command -v swift)")")

# The Debian packages (alternatives split by |, newest name first) of the shared libraries the
# toolchain's programs load; an unknown one stops with its name.
package_of_library() {
    case $1 in
        libncurses.so.6) echo libncurses6 ;;
        libtinfo.so.6) echo libtinfo6 ;;
        libcurl.so.4) echo 'libcurl4t64|libcurl4' ;;
        libxml2.so.2) echo libxml2 ;;
        libxml2.so.16) echo libxml2-16 ;;
        libedit.so.2) echo libedit2 ;;
        libz3.so.4) echo libz3-4 ;;
        libsqlite3.so.0) echo libsqlite3-0 ;;
        libz.so.1) echo zlib1g ;;
        libuuid.so.1) echo libuuid1 ;;
        libstdc++.so.6) echo libstdc++6 ;;
        libgcc_s.so.1) echo libgcc-s1 ;;
        libpython3.*.so.*) local v=${1#libpython}; echo "libpython${v%%.so*}" ;;
        *) return 1 ;;
    esac
}

# toolchain_needs: what the toolchain's own programs cannot load (ldd's "not found"), as packages.
toolchain_needs() {
    local program library
    for program in swift swift-frontend swift-build swift-driver clang lld; do
        [ -x "$toolchain/$program" ] || continue
        while read -r library; do
            package_of_library "$library" || {
                echo "install-deps: the Swift toolchain's $program needs $library, which no package here is known to provide: install it (apt-file search $library), then run make again" >&2
                return 1
            }
        done < <(ldd "$toolchain/$program" 2>/dev/null | awk '$2 == "=>" && $3 == "not" {print $1}')
    done
}

# static_link_needs: a release build links the Swift runtime statically, which needs the C++ runtime's
# development files (-lstdc++) in the GCC installation clang picks (the highest version present) and
# the C library's start files.
static_link_needs() {
    local triple; triple=$(gcc -print-multiarch 2>/dev/null || echo "$(uname -m)-linux-gnu")
    local gcc_dir; gcc_dir=$(ls -d /usr/lib/gcc/"$triple"/*/crtbegin.o 2>/dev/null | sort -V | tail -n 1)
    gcc_dir=${gcc_dir%/crtbegin.o}
    if [ -z "$gcc_dir" ]; then echo g++; return; fi
    [ -e "$gcc_dir/libstdc++.so" ] || [ -e "$gcc_dir/libstdc++.a" ] || echo "libstdc++-${gcc_dir##*/}-dev"
}

missing=()
toolchain_packages=$(toolchain_needs) || exit 1
for package in $toolchain_packages; do missing+=("$package"); done
[ -e "/usr/lib/$(gcc -print-multiarch 2>/dev/null || echo "$(uname -m)-linux-gnu")/crt1.o" ] || missing+=(libc6-dev)
if [ "$need" != build ]; then
    while read -r package; do [ -n "$package" ] && missing+=("$package"); done < <(static_link_needs)
fi
while read -r kind probe package _; do
    wanted "$kind" || continue
    present "$probe" || missing+=("$package")
done < <(requirements)

# check_toolchain: the toolchain runs (after any install); the loader's own words when it does not.
check_toolchain() {
    local output
    for program in "swift --version" "swift build --version"; do
        if ! output=$($program 2>&1 >/dev/null </dev/null); then
            echo "install-deps: \`$program\` fails: $(head -n 1 <<<"$output")" >&2
            return 1
        fi
    done
}
if [ ${#missing[@]} -eq 0 ]; then check_toolchain; exit; fi
mapfile -t missing < <(printf '%s\n' "${missing[@]}" | sort -u)

# resolve NAME|NAME…: the first alternative apt knows (libcurl4t64 on Debian 13 and Ubuntu 24.04,
# libcurl4 before), else the last.
resolve() {
    local alternative
    IFS='|' read -ra alternatives <<<"$1"
    for alternative in "${alternatives[@]}"; do
        if apt-cache show --no-all-versions "$alternative" >/dev/null 2>&1; then echo "$alternative"; return; fi
    done
    echo "${alternatives[-1]}"
}
resolve_all() { local p; for p in "${missing[@]}"; do resolve "$p"; done; }
mapfile -t missing < <(resolve_all)

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
mapfile -t missing < <(resolve_all)  # now that apt knows this release's names
"${run[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
still=()
while read -r package; do [ -n "$package" ] && still+=("$package"); done < <(toolchain_needs; [ "$need" = build ] || static_link_needs)
while read -r kind probe package _; do
    wanted "$kind" || continue
    present "$probe" || still+=("$package")
done < <(requirements)
if [ ${#still[@]} -gt 0 ]; then
    echo "install-deps: still missing after apt-get install: ${still[*]}" >&2
    exit 1
fi
check_toolchain
