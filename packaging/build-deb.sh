#!/usr/bin/env bash
# build-deb.sh BINARY VERSION OUTDIR: packages a release build of openclaw as
# OUTDIR/openclaw_VERSION_ARCH.deb with dpkg-deb (no debhelper, no fakeroot: --root-owner-group).
# Called by `make deb`; VERSION is the Debian version (upstream-revision, e.g. 0.1.0-1).
# Cross packaging (make arm64): DEB_ARCH names the binary's architecture, STRIP its strip.
set -euo pipefail
binary=$1 version=$2 outdir=$3
repo=$(cd "$(dirname "$0")/.." && pwd)
arch=${DEB_ARCH:-$(dpkg --print-architecture)}
strip=${STRIP:-strip}
# dpkg-shlibdeps reads the libraries (and uses the objdump) of the binary's architecture
export DEB_HOST_ARCH=$arch
work=$repo/.build-pkg/deb
root=$work/openclaw_${version}_${arch}
rm -rf "$work"
mkdir -p "$root/DEBIAN" "$outdir"

# Files: directories 0755, data 0644, the binary 0755 and stripped the way dh_strip does.
install -d "$root/usr/bin" "$root/usr/share/lintian/overrides" "$root/usr/share/man/man1" "$root/usr/share/doc/openclaw" \
    "$root/usr/share/bash-completion/completions" "$root/usr/share/zsh/vendor-completions" \
    "$root/usr/share/fish/vendor_completions.d"
install -m 0755 "$binary" "$root/usr/bin/openclaw"
"$strip" --strip-unneeded --remove-section=.comment --remove-section=.note "$root/usr/bin/openclaw"
gzip -9n < "$repo/man/openclaw.1" > "$root/usr/share/man/man1/openclaw.1.gz"
gzip -9n < "$repo/packaging/debian/changelog" > "$root/usr/share/doc/openclaw/changelog.Debian.gz"
install -m 0644 "$repo/packaging/debian/copyright" "$root/usr/share/doc/openclaw/copyright"
install -D -m 0644 "$repo/packaging/debian/lintian-overrides" "$root/usr/share/lintian/overrides/openclaw"
install -m 0644 "$repo/completions/openclaw.bash" "$root/usr/share/bash-completion/completions/openclaw"
install -m 0644 "$repo/completions/_openclaw" "$root/usr/share/zsh/vendor-completions/_openclaw"
install -m 0644 "$repo/completions/openclaw.fish" "$root/usr/share/fish/vendor_completions.d/openclaw.fish"
chmod 0644 "$root/usr/share/man/man1/openclaw.1.gz" "$root/usr/share/doc/openclaw/changelog.Debian.gz"

# Depends from the libraries the binary really links (dpkg-shlibdeps wants a debian/control
# beside it and the binary inside a tree with DEBIAN/).
mkdir -p "$work/src/debian"
printf 'Source: openclaw\n\nPackage: openclaw\nArchitecture: any\n' > "$work/src/debian/control"
command -v dpkg-shlibdeps >/dev/null || { echo "build-deb.sh: dpkg-shlibdeps is missing (Debian package dpkg-dev): scripts/install-deps.sh release installs it" >&2; exit 1; }
depends=$(cd "$work/src" && dpkg-shlibdeps -O "-e$root/usr/bin/openclaw" 2>"$work/shlibdeps.log" | sed -n 's/^shlibs:Depends=//p') || true
[ -n "$depends" ] || { cat "$work/shlibdeps.log" >&2; echo "build-deb.sh: dpkg-shlibdeps found no dependencies" >&2; exit 1; }

# The maintainer signs the top changelog entry; DEB_MAINTAINER overrides it.
maintainer=${DEB_MAINTAINER:-$(sed -n 's/^ -- \(.*>\)  .*/\1/p' "$repo/packaging/debian/changelog" | head -1)}
changelog_version=$(sed -n '1s/^openclaw (\([^)]*\)).*/\1/p' "$repo/packaging/debian/changelog")
[ "$changelog_version" = "$version" ] || {
    echo "build-deb.sh: packaging/debian/changelog is at $changelog_version, not $version: add an entry" >&2; exit 1; }
installed_size=$(du -sk --apparent-size "$root/usr" | cut -f1)
sed -e "s|@VERSION@|$version|" -e "s|@ARCH@|$arch|" -e "s|@MAINTAINER@|$maintainer|" \
    -e "s|@INSTALLED_SIZE@|$installed_size|" -e "s|@DEPENDS@|$depends|" \
    "$repo/packaging/debian/control.in" > "$root/DEBIAN/control"
(cd "$root" && find usr -type f -print0 | LC_ALL=C sort -z | xargs -0 md5sum) > "$root/DEBIAN/md5sums"
chmod 0644 "$root/DEBIAN/control" "$root/DEBIAN/md5sums"

dpkg-deb --root-owner-group -Zxz --build "$root" "$outdir/openclaw_${version}_${arch}.deb" >/dev/null
echo "$outdir/openclaw_${version}_${arch}.deb"
