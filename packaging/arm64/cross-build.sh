#!/usr/bin/env bash
# cross-build.sh VERSION DEB_VERSION OUTDIR: run in the cross-build root (in-root.sh), from /src.
# Cross-compiles for aarch64 at native speed with Debian's Swift against the root's arm64 libraries and
# the aarch64 Swift runtime, then packages:
#   .build-arm64/static/…/release/{openclaw,openclaw-gateway-sim}: static PIEs (glibc, OpenSSL, the Swift
#       runtime linked in), for the tarball and for `make test-arm64`;
#   .build-arm64/deb/…/release/openclaw: the system's OpenSSL and glibc linked dynamically, for the .deb;
#   OUTDIR/openclaw_DEB_VERSION_arm64.deb and OUTDIR/openclaw-VERSION-linux-aarch64.tar.gz.
# Debian's compilers crash on -cross-module-optimization: OPENCLAW_CROSS_MODULE_OPTIMIZATION=0.
set -euo pipefail
version=$1 deb_version=$2 outdir=$3
triple=aarch64-unknown-linux-gnu
arm_pkgconfig=/usr/lib/aarch64-linux-gnu/pkgconfig:/usr/share/pkgconfig
export OPENCLAW_CROSS_MODULE_OPTIMIZATION=0 PKG_CONFIG_PATH=

# swift build for aarch64; the runtime and its modules from the aarch64 tree (static for every build)
xbuild() {
    swift build --triple "$triple" -c release --static-swift-stdlib --disable-local-rpath \
        -Xswiftc -resource-dir -Xswiftc /opt/swift-aarch64/usr/libexec/swift/lib/swift_static \
        -Xswiftc -use-ld=lld "$@"
}

echo "arm64: static PIEs (openclaw, openclaw-gateway-sim)"
PKG_CONFIG_LIBDIR=$arm_pkgconfig packaging/static-libs.sh "$PWD/.build-arm64/static-libs" openssl sqlite3 >/dev/null
PKG_CONFIG_LIBDIR=$arm_pkgconfig packaging/static-libs.sh "$PWD/.build-arm64/static-sqlite" sqlite3 >/dev/null
# SwiftPM reads PKG_CONFIG_PATH (before the build machine's own directories), not PKG_CONFIG_LIBDIR
PKG_CONFIG_PATH=$PWD/.build-arm64/static-libs:$arm_pkgconfig OPENCLAW_LINK=static \
    xbuild --scratch-path .build-arm64/static
echo "arm64: openclaw with the system's OpenSSL (for the .deb)"
PKG_CONFIG_PATH=$PWD/.build-arm64/static-sqlite:$arm_pkgconfig xbuild --product openclaw --scratch-path .build-arm64/deb

DEB_ARCH=arm64 STRIP=aarch64-linux-gnu-strip \
    packaging/build-deb.sh ".build-arm64/deb/$triple/release/openclaw" "$deb_version" "$outdir"
DIST_ARCH=aarch64 STRIP=aarch64-linux-gnu-strip \
    packaging/build-dist.sh ".build-arm64/static/$triple/release/openclaw" "$version" "$outdir"
