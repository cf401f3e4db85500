#!/usr/bin/env bash
# fresh-machine.sh: the README's "Try it", word for word, on a brand-new Debian 12 root, measuring the
# claim as written: the machine has only what the README says it has, and nothing is added by hand.
#
# A Debian 12 root (debootstrap minbase) with only git, make, gcc, python3 and ca-certificates
# (no recommended packages), this machine's Swift toolchain mounted read-only at the same path and put
# on PATH (swift.org's tarball unpacked, nothing of its own dependencies installed), a clone of this
# repository's HEAD in /root/openclaw; then, as root in the root, `make demo` and `make test`, each
# timed, with the disk the clone uses. It fails when either fails, when the SSH tunnel suite did not
# run, or when anything is left mounted. The base root is cached in .build-fresh/ (FRESH=1 remakes it);
# each run starts from a new copy of it. Root only (chroot, mounts); about half an hour on 2 cores.
# Every mount is undone on every path out. Run it with `sudo scripts/fresh-machine.sh`.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
work=$repo/.build-fresh
base=$work/base.tar
root=$work/root
suite=bookworm
swift_prefix=$(dirname "$(dirname "$(dirname "$(readlink -f "$(command -v swift)")")")")  # /opt/swift
mirror=$(sed -n 's/^URIs: *//p' /etc/apt/sources.list.d/debian.sources 2>/dev/null | head -n 1)
mirror=${mirror:-http://deb.debian.org/debian}

[ "$(id -u)" -eq 0 ] || { echo "fresh-machine: run as root (chroot and mounts)" >&2; exit 1; }
command -v debootstrap >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >/dev/null; }

# Everything mounted under the root, deepest first (a test may leave more than this script made).
mounts_under_root() { awk -v r="$root" '$2 == r || index($2, r "/") == 1 {print $2}' /proc/mounts | sort -r; }
unmount_all() {
    local m
    for m in $(mounts_under_root); do umount "$m" 2>/dev/null || umount -l "$m" 2>/dev/null || true; done
}
cleanup() {
    local status=$?
    unmount_all
    # never delete through a mount that is still there
    if [ "${KEEP_ROOT:-0}" != 1 ] && [ -d "$root" ] && [ -z "$(mounts_under_root)" ]; then rm -rf "$root"; fi
    exit $status
}
trap cleanup EXIT INT TERM

if [ ! -f "$base" ] || [ "${FRESH:-0}" = 1 ]; then
    unmount_all; rm -rf "$root"; mkdir -p "$work"
    echo "==> debootstrap $suite (minbase) into $root, then git make gcc python3 ca-certificates"
    debootstrap --variant=minbase "$suite" "$root" "$mirror" >"$work/debootstrap.log" 2>&1 \
        || { tail -n 20 "$work/debootstrap.log" >&2; exit 1; }
    cp /etc/resolv.conf "$root/etc/resolv.conf"
    mount -t proc proc "$root/proc"
    chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin DEBIAN_FRONTEND=noninteractive sh -ec '
        apt-get update -qq
        apt-get install -y -qq --no-install-recommends git make gcc python3 ca-certificates >/dev/null
        apt-get clean'
    umount "$root/proc"
    tar -C "$root" -cf "$base.tmp" . && mv "$base.tmp" "$base"
    rm -rf "$root"
fi

echo "==> a new root from $base"
unmount_all; rm -rf "$root"; mkdir -p "$root"
tar -C "$root" -xf "$base"
cp /etc/resolv.conf "$root/etc/resolv.conf"
mount -t proc proc "$root/proc"
mount --rbind /dev "$root/dev"; mount --make-rslave "$root/dev"
mount --rbind /sys "$root/sys"; mount --make-rslave "$root/sys"
mount -t tmpfs tmpfs "$root/tmp"
mkdir -p "$root$swift_prefix"
mount --bind "$swift_prefix" "$root$swift_prefix"; mount -o remount,bind,ro "$root$swift_prefix"
in_root() { chroot "$root" /usr/bin/env -i HOME=/root LANG=C.UTF-8 TERM=dumb \
    PATH="$swift_prefix/usr/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin" "$@"; }
echo "==> installed before the two commands: $(in_root dpkg-query -W -f '${binary:Package}\n' | wc -l) packages"

echo "==> clone into /root/openclaw"
git clone -q "$repo" "$root/root/openclaw"
git -C "$root/root/openclaw" log --oneline -1

measure() { # NAME COMMAND: run in the clone, print wall time and the clone's size after
    local name=$1 start=$SECONDS status=0
    shift
    echo "==> $name"
    in_root sh -c "cd /root/openclaw && $*" || status=$?
    echo "==> $name: exit $status, $((SECONDS - start)) s, the clone now uses $(du -sh "$root/root/openclaw" | cut -f1)"
    return $status
}
status=0
measure "make demo" make demo || status=1
measure "make test" make test || status=1

log=$root/root/openclaw/.build/test-logs/tests.log
if grep -aq '✔ Suite CLISSHTunnelTests passed' "$log" 2>/dev/null && ! grep -aq 'CLISSHTunnelTests.*skipped' "$log"; then
    echo "==> the SSH tunnel suite ran and passed"
else
    echo "==> FAILED: the SSH tunnel suite did not run and pass (see $log)"; status=1
fi
echo "==> packages the set-up added: $(in_root dpkg-query -W -f '${binary:Package}\n' | wc -l) installed now"
unmount_all
if [ -n "$(mounts_under_root)" ]; then echo "==> FAILED: still mounted: $(mounts_under_root | tr '\n' ' ')"; status=1; fi
exit $status
