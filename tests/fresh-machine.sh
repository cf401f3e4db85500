#!/usr/bin/env bash
# fresh-machine.sh: the README's "Try it", word for word, on a fresh Debian 12 root.
#
# Makes a minimal Debian 12 root with debootstrap (cached in .build-fresh/), mounts this machine's
# Swift toolchain into it (read-only, at the same path), installs only what the toolchain itself
# needs plus git, make, gcc and python3, clones this repository's HEAD into /root/openclaw there,
# and runs `make demo` then `make test` as root in it, timing each and measuring the disk they use.
# Root only (chroot, mounts); takes about half an hour on 2 cores. Every mount is undone on every
# path out. Run it with `sudo tests/fresh-machine.sh` (KEEP_ROOT=1 keeps the root for a look).
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
work=$repo/.build-fresh
root=$work/root
suite=bookworm
swift_prefix=$(dirname "$(dirname "$(dirname "$(readlink -f "$(command -v swift)")")")")  # /opt/swift
mirror=$(sed -n 's/^URIs: *//p' /etc/apt/sources.list.d/debian.sources 2>/dev/null | head -n 1)
mirror=${mirror:-http://deb.debian.org/debian}

[ "$(id -u)" -eq 0 ] || { echo "fresh-machine: run as root (chroot and mounts)" >&2; exit 1; }
command -v debootstrap >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >/dev/null; }

mounted=()
cleanup() {
    local status=$?
    for ((i = ${#mounted[@]} - 1; i >= 0; i--)); do umount -R "${mounted[$i]}" 2>/dev/null || umount -l "${mounted[$i]}" 2>/dev/null || true; done
    if [ "${KEEP_ROOT:-0}" != 1 ] && [ -d "$root" ]; then
        # never delete through a mount that is still there
        if ! grep -q " $root" /proc/mounts; then rm -rf "$root/root/openclaw"; fi
    fi
    exit $status
}
trap cleanup EXIT INT TERM
bind() { # bind SOURCE TARGET [ro]
    mkdir -p "$2"
    mount --rbind "$1" "$2"
    mount --make-rslave "$2"
    mounted+=("$2")
    if [ "${3:-}" = ro ]; then mount -o remount,bind,ro "$2"; fi
}

if [ ! -x "$root/usr/bin/apt-get" ] || [ ! -f "$work/base.done" ]; then
    rm -rf "$root"; mkdir -p "$work"
    echo "==> debootstrap $suite (minbase) into $root"
    debootstrap --variant=minbase "$suite" "$root" "$mirror" >"$work/debootstrap.log" 2>&1 \
        || { tail -n 20 "$work/debootstrap.log" >&2; exit 1; }
    touch "$work/base.done"
fi

mount -t proc proc "$root/proc"; mounted+=("$root/proc")
bind /dev "$root/dev"
bind /sys "$root/sys"
mount -t tmpfs tmpfs "$root/tmp"; mounted+=("$root/tmp")
bind "$swift_prefix" "$root$swift_prefix" ro
cp /etc/resolv.conf "$root/etc/resolv.conf"
in_root() { chroot "$root" /usr/bin/env -i HOME=/root LANG=C.UTF-8 TERM=dumb \
    PATH="$swift_prefix/usr/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin" "$@"; }

if [ ! -f "$work/toolchain.done" ]; then
    echo "==> the Swift toolchain's own dependencies, git, make, gcc, python3"
    in_root sh -c 'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
        binutils libc6-dev libgcc-12-dev libstdc++-12-dev libcurl4 libxml2 libedit2 libncurses6 libz3-4 \
        libpython3.11 libsqlite3-0 zlib1g-dev tzdata ca-certificates git make gcc python3 >/dev/null'
    touch "$work/toolchain.done"
fi
in_root swift --version

echo "==> clone into /root/openclaw"
rm -rf "$root/root/openclaw"
git clone -q "$repo" "$root/root/openclaw"
git -C "$root/root/openclaw" log --oneline -1

measure() { # NAME COMMAND: run in the clone, print wall time and the clone's size after
    local name=$1 start=$SECONDS
    shift
    echo "==> $name"
    in_root sh -c "cd /root/openclaw && $*"
    local status=$?
    echo "==> $name: exit $status, $((SECONDS - start)) s, the clone now uses $(du -sh "$root/root/openclaw" | cut -f1)"
    return $status
}
status=0
measure "make demo" make demo || status=1
measure "make test" make test || status=1
exit $status
