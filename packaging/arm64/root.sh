#!/usr/bin/env bash
# root.sh ROOT: the cross-build root for arm64, made once and cached (a stamp file names what it holds).
#   ROOT is a Debian 13 (trixie) amd64 root with Debian's own Swift (swiftlang), the arm64 C libraries
#   the product links (multiarch: libc6-dev:arm64, libssl-dev:arm64, …), the aarch64 Swift runtime
#   taken from swiftlang:arm64, lld, qemu-user (for binfmt) and the packaging tools.
# Only Debian's archive is used. Mounts (proc, dev) last only while apt runs and are undone on every path.
set -euo pipefail
root=$(realpath -m "$1")
suite=trixie
mirror=$(sed -n 's/^URIs: *//p' /etc/apt/sources.list.d/debian.sources 2>/dev/null | head -n 1)
mirror=${mirror:-http://deb.debian.org/debian}
native="swiftlang libstdc++-14-dev binutils binutils-aarch64-linux-gnu pkg-config make python3 git ca-certificates openssl
        dpkg-dev lintian file qemu-user libssl-dev libsqlite3-dev"
foreign="libc6-dev:arm64 libgcc-14-dev:arm64 libstdc++-14-dev:arm64 libssl-dev:arm64 libsqlite3-dev:arm64
         zlib1g-dev:arm64 libzstd-dev:arm64"
stamp="$suite | $native | $foreign | swiftlang:arm64 runtime"
if [ -f "$root.done" ] && [ "$(cat "$root.done")" = "$stamp" ]; then exit 0; fi

[ "$(id -u)" -eq 0 ] || { echo "arm64: making the cross-build root needs root (debootstrap, chroot)" >&2; exit 1; }
command -v debootstrap >/dev/null || {
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends debootstrap >/dev/null; }

mounted=()
cleanup() { for ((i = ${#mounted[@]} - 1; i >= 0; i--)); do umount "${mounted[$i]}" 2>/dev/null || umount -l "${mounted[$i]}"; done; }
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

rm -rf "$root" "$root.done"
mkdir -p "$(dirname "$root")"
echo "arm64: debootstrap $suite (amd64, minbase) into $root"
debootstrap --variant=minbase "$suite" "$root" "$mirror" >"$root.log" 2>&1 || { tail -n 20 "$root.log" >&2; exit 1; }
mount -t proc proc "$root/proc"; mounted+=("$root/proc")
mount --bind /dev "$root/dev"; mounted+=("$root/dev")
cp /etc/resolv.conf "$root/etc/resolv.conf"
echo "arm64: Debian's Swift and the arm64 libraries (apt, about 1 GB)"
chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin DEBIAN_FRONTEND=noninteractive sh -ec "
    dpkg --add-architecture arm64
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends $(echo $native $foreign) >/dev/null 2>>/var/log/openclaw-apt.log \
        || { tail -n 20 /var/log/openclaw-apt.log >&2; exit 1; }
    cd /tmp && apt-get download -qq swiftlang:arm64
    mkdir -p /opt/swift-aarch64
    dpkg-deb --fsys-tarfile /tmp/swiftlang_*_arm64.deb \
        | tar -x -C /opt/swift-aarch64 ./usr/libexec/swift/lib/swift ./usr/libexec/swift/lib/swift_static
    rm -f /tmp/swiftlang_*_arm64.deb
    # clang's own headers are the same for every target: the aarch64 tree points at the host's
    ln -sfn /usr/libexec/swift/lib/clang /opt/swift-aarch64/usr/libexec/swift/lib/clang
    apt-get clean"
echo "$stamp" > "$root.done"
echo "arm64: root ready ($(du -sh --exclude=proc "$root" 2>/dev/null | cut -f1))"
