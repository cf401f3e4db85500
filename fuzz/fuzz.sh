#!/bin/sh
# Builds the libFuzzer harnesses into fuzz/bin and runs each for FUZZ_SECONDS (see fuzz/README.md).
# Usage: fuzz/fuzz.sh [build|run|all] [target…]   targets: websocket json json5 args frames pem
set -eu
cd "$(dirname "$0")/.."
ACTION=${1:-all}
[ $# -gt 0 ] && shift
TARGETS=${*:-websocket json json5 args frames pem}
FUZZ_SECONDS=${FUZZ_SECONDS:-60}
SWIFTC=${SWIFTC:-swiftc}
BIN=fuzz/bin
OUT=fuzz/out
FLAGS="-O -g -sanitize=fuzzer,address -parse-as-library -package-name openclaw -I Sources/CClawOpenSSL -I Sources/CClawSQLite -I $BIN/cbuildinfo"

harness() {
    case $1 in
        websocket) echo WebSocketDecoderFuzz ;;
        json) echo JSONParserFuzz ;;
        json5) echo JSON5Fuzz ;;
        args) echo ArgumentParserFuzz ;;
        frames) echo GatewayFrameFuzz ;;
        pem) echo Ed25519PEMFuzz ;;
        *) echo "unknown fuzz target '$1'" >&2; exit 2 ;;
    esac
}

max_len() {
    case $1 in
        websocket) echo 4096 ;;
        json|json5) echo 4096 ;;
        args) echo 1024 ;;
        frames) echo 8192 ;;
        pem) echo 1024 ;;
    esac
}

# The library's modules, bottom to top, then the CLI sources (minus main.swift) as module `openclaw`:
# each an instrumented module built with -enable-testing, so the harnesses reach internal types with
# `@testable import`. The order is the layer order of ARCHITECTURE.md.
MODULES="ClawSystem ClawJSON ClawCrypto ClawTransport ClawProtocol ClawState ClawSession openclaw"

module_sources() {
    if [ "$1" = openclaw ]; then
        find Sources/openclaw -name '*.swift' ! -path Sources/openclaw/main.swift | sort
    else
        find "Sources/$1" -name '*.swift' | sort
    fi
}

build_module() {
    mkdir -p $BIN/mod $BIN/cbuildinfo
    # The CLI's `import CBuildInfo` (the C target SwiftPM builds): a module map and its one object.
    printf 'module CBuildInfo {\n    header "%s/Sources/CBuildInfo/include/BuildInfo.h"\n    export *\n}\n' "$(pwd)" \
        > $BIN/cbuildinfo/module.modulemap
    ${CC:-clang} -O2 -c Sources/CBuildInfo/BuildInfo.c -I Sources/CBuildInfo/include -o $BIN/cbuildinfo/BuildInfo.o
    rebuild=
    for module in $MODULES; do
        SOURCES=$(module_sources "$module")
        # A module is rebuilt when its sources or any module below it changed.
        if [ -z "$rebuild" ] && [ -f "$BIN/$module.o" ] && [ -z "$(find $SOURCES -newer "$BIN/$module.o")" ]; then continue; fi
        rebuild=yes
        echo "fuzz: compiling $module (instrumented)"
        rm -f "$BIN/$module.o.tmp"
        # shellcheck disable=SC2086
        $SWIFTC $FLAGS -I $BIN/mod -enable-testing -module-name "$module" -wmo -c $SOURCES \
            -emit-module -emit-module-path "$BIN/mod/$module.swiftmodule" -o "$BIN/$module.o.tmp" \
            2>&1 | grep -v -e 'warning:' -e '^ *[0-9]* |' -e '^ *|' -e '^$' || true
        [ -f "$BIN/$module.o.tmp" ] || { echo "fuzz: $module did not compile" >&2; exit 1; }
        mv "$BIN/$module.o.tmp" "$BIN/$module.o"
    done
}

build() {
    build_module
    for target in $TARGETS; do
        name=$(harness "$target")
        echo "fuzz: linking $BIN/$target"
        rm -f "$BIN/$target"
        # shellcheck disable=SC2086
        $SWIFTC $FLAGS -I $BIN/mod -module-name "$name" fuzz/harness/FuzzSupport.swift "fuzz/harness/$name.swift" \
            $(for module in $MODULES; do printf '%s ' "$BIN/$module.o"; done) $BIN/cbuildinfo/BuildInfo.o \
            -lssl -lcrypto -lsqlite3 -o "$BIN/$target" 2>&1 | grep -v "Cannot export local symbol '__asan" || true
        [ -x "$BIN/$target" ] || { echo "fuzz: $target did not link" >&2; exit 1; }
    done
}

run() {
    for target in $TARGETS; do
        mkdir -p "$OUT/$target/corpus"
        echo "fuzz: $target for ${FUZZ_SECONDS}s"
        # The working corpus lives in fuzz/out (ignored); the committed seeds are only read.
        # SWIFT_BACKTRACE off: the Swift crash handler fights ASan and can hang on a crash.
        SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1} "$BIN/$target" \
            -max_len="$(max_len "$target")" -timeout=5 -rss_limit_mb=2048 -detect_leaks=1 \
            -max_total_time="$FUZZ_SECONDS" -print_final_stats=1 -artifact_prefix="$OUT/$target/" \
            ${FUZZ_RUNS:+-runs=$FUZZ_RUNS} "$OUT/$target/corpus" "fuzz/corpus/$target" \
            2>"$OUT/$target/log" || { tail -40 "$OUT/$target/log"; echo "fuzz: $target FAILED (log: $OUT/$target/log)"; exit 1; }
        grep -E '^stat::(number_of_executed_units|peak_rss_mb)|Done [0-9]+ runs' "$OUT/$target/log" | sed "s/^/fuzz: $target: /"
    done
}

case $ACTION in
    build) build ;;
    run) run ;;
    all) build; run ;;
    *) echo "usage: fuzz/fuzz.sh [build|run|all] [target…]" >&2; exit 2 ;;
esac
