#!/usr/bin/env bash
# check.sh STATE OUTDIR: `make debsrc-check` (root). Takes the source package `make debsrc` left in OUTDIR
# and checks it as Debian's archive would, in clean Debian 13 (trixie) roots cached under STATE
# (packaging/debsrc/root.sh), each step in a throw-away overlay of them (in-root.sh):
#   1. build: dpkg-source -x, then dpkg-buildpackage -us -uc as an unprivileged user, in the `buildd`
#      root holding only the Build-Depends, with no network at all (a network namespace of its own: only
#      a loopback, which the tests' simulators use); DEB_BUILD_OPTIONS from the caller, else parallel=nproc;
#   2. the .deb's files against make deb's (names, modes, owners; the man page, completions, copyright,
#      changelog and lintian overrides byte for byte);
#   3. build again in a fresh overlay (DEB_BUILD_OPTIONS plus nocheck, another time zone and locale) and
#      compare the .deb files byte for byte: the build is reproducible, or the differing files are named;
#   4. lintian --pedantic on the .changes (source and binary packages): an error or warning fails;
#   5. autopkgtest (debian/tests) of the built .deb, on the `null` testbed of a throw-away overlay of a
#      root with lintian and autopkgtest (it installs the tests' dependencies from Debian's archive).
# OUTDIR then holds the .dsc, the tarballs, the .deb files, .buildinfo, .changes, lintian.txt and
# autopkgtest/ (its summary and logs); each step's time is printed, and the whole.
set -euo pipefail
state=$(realpath -m "$1") outdir=$(realpath "$2")
repo=$(cd "$(dirname "$0")/../.." && pwd)
here=$repo/packaging/debsrc
[ "$(id -u)" -eq 0 ] || { echo "debsrc-check: needs root (mmdebstrap, mounts, chroot); make debsrc needs none" >&2; exit 1; }
dsc=$(ls "$outdir"/openclaw_*.dsc | head -n 1)
version=$(sed -n 's/^Version: //p' "$dsc") upstream=${version%-*}
arch=$(dpkg --print-architecture)
start=$SECONDS
step() { echo "debsrc-check: $*"; step_start=$SECONDS; }
took() { echo "debsrc-check: ... $((SECONDS - step_start)) s"; }

step "clean roots (cached in $state)"
"$here/root.sh" build "$state/build-root" "$repo/debian/control"
"$here/root.sh" check "$state/check-root" "$repo/debian/control"
took

# The exchange directory: the source package in, results out; RUN directories hold the overlays' upper
# layers, deleted afterwards (nothing is mounted there outside the private namespaces).
x=$state/exchange
rm -rf "$state/run" && mkdir -p "$x" "$state/run" && find "$x" -mindepth 1 -maxdepth 1 ! -name apt-archives -exec rm -rf {} +
mkdir -p "$x/in" "$x/apt-archives/partial"   # apt-archives: the test dependencies' .debs, kept between runs
cp "$dsc" "$outdir/openclaw_$upstream.orig.tar.xz" "$outdir/openclaw_$version.debian.tar.xz" "$x/in/"
cleanup() { rm -rf "$state/run"; }
trap cleanup EXIT

jobs=$(nproc)
build() { # NAME DEB_BUILD_OPTIONS TZ LANG
    local name=$1 options=$2 tz=$3 lang=$4
    mkdir -p "$x/$name" && rm -rf "${x:?}/$name"/*
    # dpkg-buildpackage as `builder`, HOME nowhere (as sbuild: the build must not need one), in /build.
    unshare --mount --propagation private --net "$here/in-root.sh" "$state/build-root" "$state/run/$name" "$x" "
        mkdir -p /build && cp /srv/in/* /build/ && chown -R builder: /build && cd /build
        runuser -u builder -- env -i PATH=/usr/bin:/bin HOME=/sbuild-nonexistent LANG=$lang TZ=$tz \
            DEB_BUILD_OPTIONS='$options' sh -ec '
                dpkg-source -x openclaw_$version.dsc openclaw-$upstream >/dev/null
                cd openclaw-$upstream && dpkg-buildpackage -us -uc' >/srv/$name/build.log 2>&1 \
            || { tail -n 60 /srv/$name/build.log; exit 1; }
        cp openclaw_* openclaw-dbgsym_* /srv/$name/ 2>/dev/null || cp openclaw_* /srv/$name/"
    ls "$x/$name"
}

step "build 1: dpkg-buildpackage in the clean root, no network (DEB_BUILD_OPTIONS=${DEB_BUILD_OPTIONS:-parallel=$jobs})"
build build1 "${DEB_BUILD_OPTIONS:-parallel=$jobs}" UTC C.UTF-8
took
build1_time=$((SECONDS - step_start))
grep -E '^(ok|not ok) ' "$x/build1/build.log" | sed 's/^/    dh_auto_test: /' || true

step "the .deb against make deb's files"
deb=$x/build1/openclaw_${version}_$arch.deb
contents=$(dpkg-deb -c "$deb" | awk '$1 !~ /^d/ {print $1, $2, $6}' | sort)
expected="-rw-r--r-- root/root ./usr/share/bash-completion/completions/openclaw
-rw-r--r-- root/root ./usr/share/doc/openclaw/changelog.Debian.gz
-rw-r--r-- root/root ./usr/share/doc/openclaw/copyright
-rw-r--r-- root/root ./usr/share/fish/vendor_completions.d/openclaw.fish
-rw-r--r-- root/root ./usr/share/lintian/overrides/openclaw
-rw-r--r-- root/root ./usr/share/man/man1/openclaw.1.gz
-rw-r--r-- root/root ./usr/share/zsh/vendor-completions/_openclaw
-rwxr-xr-x root/root ./usr/bin/openclaw"
[ "$contents" = "$(sort <<<"$expected")" ] || { printf 'debsrc-check: the .deb holds\n%s\nnot\n%s\n' "$contents" "$expected" >&2; exit 1; }
unpacked=$state/run/unpacked && rm -rf "$unpacked" && dpkg-deb -x "$deb" "$unpacked"
u=$unpacked/usr/share
cmp <(zcat "$u/man/man1/openclaw.1.gz") "$repo/man/openclaw.1"
cmp "$u/bash-completion/completions/openclaw" "$repo/completions/openclaw.bash"
cmp "$u/zsh/vendor-completions/_openclaw" "$repo/completions/_openclaw"
cmp "$u/fish/vendor_completions.d/openclaw.fish" "$repo/completions/openclaw.fish"
cmp "$u/doc/openclaw/copyright" "$repo/packaging/debian/copyright"
cmp <(zcat "$u/doc/openclaw/changelog.Debian.gz") "$repo/packaging/debian/changelog"
cmp "$u/lintian/overrides/openclaw" "$repo/packaging/debian/lintian-overrides"
dpkg-deb -f "$deb" Package Version Architecture Depends Static-Built-Using | sed 's/^/    /'
echo "    the same 8 files as make deb's package, the data files byte for byte"
took

step "build 2: again in a fresh root, with nocheck, TZ=Pacific/Auckland, LANG=C"
build build2 "${DEB_BUILD_OPTIONS:-parallel=$jobs} nocheck" Pacific/Auckland C
took
repro=identical
for file in "$x"/build1/*.deb; do
    other=$x/build2/${file##*/}
    if cmp -s "$file" "$other"; then echo "    ${file##*/}: identical ($(sha256sum <"$file" | cut -c1-16))"
    else
        repro=different; echo "    ${file##*/}: DIFFERS"
        for member in control.tar.xz data.tar.xz; do
            cmp -s <(ar p "$file" "$member") <(ar p "$other" "$member") || echo "      $member differs"
        done
    fi
done

step "lintian --pedantic (trixie's) on the source and binary packages"
cp "$x"/build1/* "$x/in/" 2>/dev/null || true
status=0
unshare --mount --propagation private --net "$here/in-root.sh" "$state/check-root" "$state/run/lintian" "$x" "
    lintian --version; lintian --pedantic -I --show-overrides --color never /srv/in/openclaw_${version}_$arch.changes >/srv/lintian.txt 2>&1 || true
    cat /srv/lintian.txt; ! grep -qE '^[EW]: ' /srv/lintian.txt" || status=1
[ -s "$x/lintian.txt" ] || echo "    (no tag at all)"
took
[ $status -eq 0 ] || { echo "debsrc-check: lintian reports an error or a warning" >&2; exit 1; }

step "autopkgtest (null testbed in a fresh overlay of the check root; test dependencies from the archive)"
rm -rf "$x/autopkgtest"
status=0
unshare --mount --propagation private "$here/in-root.sh" "$state/check-root" "$state/run/autopkgtest" "$x" "
    echo 'Dir::Cache::Archives "/srv/apt-archives/";' >/etc/apt/apt.conf.d/90openclaw-archives
    apt-get update -qq
    autopkgtest --output-dir /srv/autopkgtest /srv/in/openclaw_$version.dsc /srv/in/openclaw_${version}_$arch.deb -- null \
        >/srv/autopkgtest.log 2>&1" || status=$?
cat "$x/autopkgtest/summary" 2>/dev/null || tail -n 40 "$x/autopkgtest.log"
took

rm -f "$outdir"/openclaw_*.deb "$outdir"/openclaw-dbgsym_* "$outdir"/openclaw_*.buildinfo "$outdir"/openclaw_*.changes
cp "$x"/build1/openclaw* "$outdir/"
rm -f "$outdir/build.log"
cp "$x/build1/build.log" "$outdir/build.log"
cp "$x/lintian.txt" "$outdir/lintian.txt"
rm -rf "$outdir/autopkgtest" && cp -r "$x/autopkgtest" "$outdir/autopkgtest" 2>/dev/null || true
echo "debsrc-check: build $build1_time s; reproducible: $repro; autopkgtest exit $status; all $((SECONDS - start)) s; results in $outdir"
[ $status -eq 0 ] && [ "$repro" = identical ]
