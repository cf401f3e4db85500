#!/usr/bin/env bash
# static-libs.sh DIR: a pkg-config directory whose openssl.pc and sqlite3.pc point at a directory
# holding only libssl.a, libcrypto.a and libsqlite3.a, so that `PKG_CONFIG_PATH=DIR swift build`
# links OpenSSL and SQLite statically (the linker finds no .so there). The archives come from
# libssl-dev and libsqlite3-dev.
set -euo pipefail
dir=$1
libdir=$(pkg-config --variable=libdir openssl 2>/dev/null || echo /usr/lib/$(gcc -print-multiarch 2>/dev/null))
for lib in libssl.a:libssl-dev libcrypto.a:libssl-dev libsqlite3.a:libsqlite3-dev; do
    [ -f "$libdir/${lib%%:*}" ] || { echo "static-libs.sh: $libdir/${lib%%:*} not found (apt-get install ${lib##*:})" >&2; exit 1; }
done
mkdir -p "$dir"
ln -sf "$libdir/libssl.a" "$libdir/libcrypto.a" "$libdir/libsqlite3.a" "$dir/"
cat > "$dir/openssl.pc.tmp" <<PC
libdir=$dir
Name: OpenSSL
Description: libssl and libcrypto, static archives only
Version: $(pkg-config --modversion openssl 2>/dev/null || echo 3)
Libs: -L\${libdir} -lssl -lcrypto
Cflags:
PC
mv "$dir/openssl.pc.tmp" "$dir/openssl.pc"
cat > "$dir/sqlite3.pc.tmp" <<PC
libdir=$dir
Name: SQLite
Description: libsqlite3, static archive only
Version: $(pkg-config --modversion sqlite3 2>/dev/null || echo 3)
Libs: -L\${libdir} -lsqlite3 -lm
Cflags:
PC
mv "$dir/sqlite3.pc.tmp" "$dir/sqlite3.pc"
