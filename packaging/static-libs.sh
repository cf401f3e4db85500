#!/usr/bin/env bash
# static-libs.sh DIR LIB...: a pkg-config directory for LIB (openssl, sqlite3) whose .pc files point at a
# directory holding only the static archives (libssl.a and libcrypto.a; libsqlite3.a), so that
# `PKG_CONFIG_PATH=DIR swift build` links them statically (the linker finds no .so there). The archives
# come from libssl-dev and libsqlite3-dev. PKG_CONFIG_LIBDIR picks another architecture's (make arm64).
set -euo pipefail
dir=$1
shift
mkdir -p "$dir"
libdir_of() { pkg-config --variable=libdir "$1" 2>/dev/null || echo "/usr/lib/$(gcc -print-multiarch 2>/dev/null)"; }
need() { # ARCHIVE PACKAGE LIBDIR
    [ -f "$3/$1" ] || { echo "static-libs.sh: $3/$1 not found (apt-get install $2)" >&2; exit 1; }
    ln -sf "$3/$1" "$dir/"
}
# write NAME LIBS: DIR/NAME.pc whose libdir is DIR
write() {
    cat >"$dir/$1.pc.tmp" <<PC
libdir=$dir
Name: $1
Description: static archives only
Version: $(pkg-config --modversion "$1" 2>/dev/null || echo 0)
Libs: -L\${libdir} $2
Cflags:
PC
    mv "$dir/$1.pc.tmp" "$dir/$1.pc"
}
for lib in "$@"; do
    case $lib in
        openssl)
            libdir=$(libdir_of openssl)
            need libssl.a libssl-dev "$libdir"
            need libcrypto.a libssl-dev "$libdir"
            # What libcrypto.a itself needs (Debian 13's OpenSSL compresses certificates with zlib and zstd).
            private=$(pkg-config --static --libs-only-l libcrypto 2>/dev/null | tr ' ' '\n' | grep -vx -- '-lcrypto' | tr '\n' ' ')
            write openssl "-lssl -lcrypto $private" ;;
        sqlite3)
            libdir=$(libdir_of sqlite3)
            need libsqlite3.a libsqlite3-dev "$libdir"
            write sqlite3 "-lsqlite3 -lm" ;;
        *) echo "static-libs.sh: unknown library $lib (openssl, sqlite3)" >&2; exit 2 ;;
    esac
done
