#!/usr/bin/env bash
# root.sh KIND ROOT CONTROL: a clean Debian 13 (trixie) amd64 root made once with mmdebstrap and cached
# (ROOT.done names what it holds; a change of debian/control's Build-Depends or of this script's lists
# makes it again). Only Debian's archive is used; mmdebstrap mounts and unmounts what its hooks need.
#   KIND build: the `buildd` variant (essential, apt, build-essential: what sbuild starts from) plus
#       exactly the Build-Depends of CONTROL (apt-get build-dep), and an unprivileged user `builder`
#       that dpkg-buildpackage runs as (Debian's buildds build as a user, not as root).
#   KIND check: the `apt` variant plus lintian and autopkgtest, the archive's checkers; the packages
#       under test and their tests' dependencies are installed into a throw-away overlay of it.
set -euo pipefail
kind=$1 root=$(realpath -m "$2") control=$(realpath "$3")
suite=trixie
mirror=$(sed -n 's/^URIs: *//p' /etc/apt/sources.list.d/debian.sources 2>/dev/null | head -n 1)
mirror=${mirror:-http://deb.debian.org/debian}
case $kind in
    build) stamp="$suite buildd | build-dep: $(sed -n '/^Build-Depends:/,/^[^ ]/p' "$control" | tr -s ' \n' ' ')" ;;
    check) stamp="$suite apt | lintian autopkgtest" ;;
    *) echo "usage: $0 build|check ROOT DEBIAN_CONTROL" >&2; exit 2 ;;
esac
if [ -f "$root.done" ] && [ "$(cat "$root.done")" = "$stamp" ]; then exit 0; fi

[ "$(id -u)" -eq 0 ] || { echo "debsrc: making the clean root needs root (mmdebstrap, chroot)" >&2; exit 1; }
command -v mmdebstrap >/dev/null || {
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends mmdebstrap >/dev/null; }
if grep -q " $root/" /proc/mounts; then echo "debsrc: something is still mounted in $root" >&2; exit 1; fi
rm -rf "$root" "$root.done"
mkdir -p "$(dirname "$root")"
echo "debsrc: mmdebstrap $suite ($kind) into $root"
case $kind in
    build)
        # The build dependencies as apt-get build-dep resolves them from debian/control, as sbuild does.
        mmdebstrap --variant=buildd --mode=root \
            --customize-hook="mkdir -p \"\$1/tmp/build-dep/debian\"" \
            --customize-hook="copy-in $control /tmp/build-dep/debian" \
            --customize-hook="chroot \"\$1\" env DEBIAN_FRONTEND=noninteractive apt-get build-dep -y -q --no-install-recommends /tmp/build-dep" \
            --customize-hook="rm -rf \"\$1/tmp/build-dep\"" \
            --customize-hook="chroot \"\$1\" useradd --create-home --uid 1500 builder" \
            "$suite" "$root" "$mirror" >"$root.log" 2>&1 || { tail -n 30 "$root.log" >&2; exit 1; } ;;
    check)
        mmdebstrap --variant=apt --mode=root --include=lintian,autopkgtest \
            "$suite" "$root" "$mirror" >"$root.log" 2>&1 || { tail -n 30 "$root.log" >&2; exit 1; } ;;
esac
echo "$stamp" > "$root.done"
echo "debsrc: root ready ($(du -sh "$root" 2>/dev/null | cut -f1))"
