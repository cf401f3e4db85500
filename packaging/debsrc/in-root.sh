#!/usr/bin/env bash
# in-root.sh LOWER RUN EXCHANGE SCRIPT: runs SCRIPT (sh -c, as root) in a throw-away overlay of the cached
# root LOWER (RUN holds the overlay's upper and work directories), with EXCHANGE bound at /srv. Meant to
# run inside `unshare --mount --propagation private` (check.sh does): the mounts (overlay, proc, dev,
# dev/pts, /srv) then exist in that namespace only and vanish with it however it ends; they are also
# unmounted in order on every path out. Under `unshare --net`, loopback is brought up (no other network).
set -euo pipefail
lower=$(realpath "$1") run=$(realpath -m "$2") exchange=$(realpath "$3") script=$4
mounted=()
cleanup() { for ((i = ${#mounted[@]} - 1; i >= 0; i--)); do umount "${mounted[$i]}" 2>/dev/null || umount -l "${mounted[$i]}"; done; }
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
rm -rf "$run" && mkdir -p "$run/upper" "$run/work" "$run/root"
root=$run/root
mount -t overlay overlay -o "lowerdir=$lower,upperdir=$run/upper,workdir=$run/work" "$root"; mounted+=("$root")
mount -t proc proc "$root/proc"; mounted+=("$root/proc")
mount --bind /dev "$root/dev"; mounted+=("$root/dev")
mount --bind /dev/pts "$root/dev/pts"; mounted+=("$root/dev/pts")
mkdir -p "$root/srv"
mount --bind "$exchange" "$root/srv"; mounted+=("$root/srv")
# a network namespace of our own has only a loopback, down: the tests' simulators listen there
if [ "$(readlink /proc/self/ns/net)" = "$(readlink /proc/1/ns/net)" ]; then
    cp /etc/resolv.conf "$root/etc/resolv.conf"   # apt reaches Debian's archive (the overlay is thrown away)
else
    ip link set lo up
fi
status=0
chroot "$root" /usr/bin/env -i HOME=/root LANG=C.UTF-8 PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    sh -ec "$script" || status=$?
exit $status
