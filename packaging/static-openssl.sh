#!/usr/bin/env bash
# static-openssl.sh DIR: a pkg-config directory whose openssl.pc points at a directory holding only
# libssl.a and libcrypto.a, so that `PKG_CONFIG_PATH=DIR swift build` links OpenSSL statically
# (the linker finds no .so there). The archives come from libssl-dev. (SQLite is linked from its
# archive in every build: see Package.swift.)
set -euo pipefail
dir=$1
libdir=$(pkg-config --variable=libdir openssl 2>/dev/null || echo /usr/lib/$(gcc -print-multiarch 2>/dev/null))
for lib in libssl.a:libssl-dev libcrypto.a:libssl-dev; do
    [ -f "$libdir/${lib%%:*}" ] || { echo "static-libs.sh: $libdir/${lib%%:*} not found (apt-get install ${lib##*:})" >&2; exit 1; }
done
# What libcrypto.a itself needs (Debian 13's OpenSSL compresses certificates with zlib and zstd).
private=$(pkg-config --static --libs-only-l libcrypto 2>/dev/null | tr ' ' '\n' | grep -vx -- '-lcrypto' | tr '\n' ' ')
mkdir -p "$dir"
ln -sf "$libdir/libssl.a" "$libdir/libcrypto.a" "$dir/"
cat > "$dir/openssl.pc.tmp" <<PC
libdir=$dir
Name: OpenSSL
Description: libssl and libcrypto, static archives only
Version: $(pkg-config --modversion openssl 2>/dev/null || echo 3)
Libs: -L\${libdir} -lssl -lcrypto $private
Cflags:
PC
mv "$dir/openssl.pc.tmp" "$dir/openssl.pc"
