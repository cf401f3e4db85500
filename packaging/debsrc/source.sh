#!/usr/bin/env bash
# source.sh VERSION OUTDIR: the Debian source package of HEAD (make debsrc), in OUTDIR:
#   openclaw_VERSION.orig.tar.xz   `git archive HEAD` without debian/ (the upstream tarball: the tree as
#                                  committed; xz of a tar whose times are the commit's, so the same
#                                  commit gives the same bytes)
#   openclaw_VERSION-REV.debian.tar.xz, openclaw_VERSION-REV.dsc   dpkg-source -b, debian/ of the work tree
# debian/changelog and debian/copyright must be packaging/debian's (make deb installs those, and both
# packages carry the same files); the changelog's upstream version must be the source's (VERSION).
set -euo pipefail
version=$1 outdir=$2
repo=$(cd "$(dirname "$0")/../.." && pwd)
cd "$repo"
for file in changelog copyright; do
    cmp -s "debian/$file" "packaging/debian/$file" || {
        echo "debsrc: debian/$file differs from packaging/debian/$file: the two packages ship the same file, make them equal" >&2; exit 1; }
done
cmp -s debian/openclaw.lintian-overrides packaging/debian/lintian-overrides || {
    echo "debsrc: debian/openclaw.lintian-overrides differs from packaging/debian/lintian-overrides" >&2; exit 1; }
deb_version=$(dpkg-parsechangelog -l debian/changelog -SVersion)
[ "${deb_version%-*}" = "$version" ] || {
    echo "debsrc: debian/changelog is at $deb_version, the source at $version: add a changelog entry" >&2; exit 1; }
git rev-parse --verify -q HEAD >/dev/null || { echo "debsrc: needs a git checkout with a commit (git archive HEAD)" >&2; exit 1; }

work=$repo/.build-debsrc/source
rm -rf "$work" && mkdir -p "$work" "$outdir"
orig=$work/openclaw_$version.orig.tar.xz
git archive --format=tar --prefix="openclaw-$version/" HEAD -- . ':(exclude)debian' | xz -6 -T1 -c >"$orig"
tar -xf "$orig" -C "$work"
# debian/ as it is in the work tree (committed or not), without what a build in place leaves there
git ls-files -z --cached --others --exclude-standard -- debian | xargs -0 tar -c | tar -x -C "$work/openclaw-$version"
export SOURCE_DATE_EPOCH=$(dpkg-parsechangelog -l debian/changelog -STimestamp)
(cd "$work" && dpkg-source --compression=xz -b "openclaw-$version" >/dev/null)
rm -f "$outdir"/openclaw_*.dsc "$outdir"/openclaw_*.orig.tar.* "$outdir"/openclaw_*.debian.tar.*
cp "$work"/openclaw_"$version"*.dsc "$work"/openclaw_"$version"*.tar.xz "$outdir/"
ls "$outdir"/openclaw_"$version"*.dsc
