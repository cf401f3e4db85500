#!/usr/bin/env bash
# in-root.sh ROOT COMMAND...: runs COMMAND (through sh -c) in the cross-build root, in /src, which is this
# checkout bound read-write. proc, dev and /src are mounted for the command only and unmounted on every
# path out, signals included, so nothing stays mounted and a later `rm -rf` of the root is safe.
set -euo pipefail
root=$(realpath "$1"); shift
repo=$(cd "$(dirname "$0")/../.." && pwd)
mounted=()
cleanup() { for ((i = ${#mounted[@]} - 1; i >= 0; i--)); do umount "${mounted[$i]}" 2>/dev/null || umount -l "${mounted[$i]}"; done; }
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
mount -t proc proc "$root/proc"; mounted+=("$root/proc")
mount --bind /dev "$root/dev"; mounted+=("$root/dev")
mkdir -p "$root/src"
mount --bind "$repo" "$root/src"; mounted+=("$root/src")
status=0
chroot "$root" /usr/bin/env -i HOME=/root LANG=C.UTF-8 PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    OPENCLAW_COMMIT="${OPENCLAW_COMMIT:-}" SOURCE_DATE_EPOCH="${SOURCE_DATE_EPOCH:-0}" \
    sh -c "cd /src && $*" || status=$?
exit $status
