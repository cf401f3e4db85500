#!/usr/bin/env bash
# test.sh: `make test` (the contributor's loop) and `make check` (the full gate, `scripts/test.sh check`).
# Runs every step even when one fails, keeps each step's whole output in .build/test-logs/STEP.log, and
# ends with a summary a person can read: each step, how many tests it ran, how long it took, and the
# name of every test that failed.
#
#   make test:  the layers check, the debug build, and the package's tests (unit and end-to-end
#               against the simulator), the engine's rules in virtual time among them; all but the
#               `make install` test, which needs a release build.
#   make check: make test's steps, then everything else that guards a release: the consumer on a tag,
#               the public API, the DocC docs and every Swift snippet, the examples, ThreadSanitizer,
#               the optimised wire suites, the packages, the `make install` test, and the real-world
#               suites.
set -uo pipefail
cd "$(dirname "$0")/.."
mode=${1:-test}
case $mode in test|check) ;; *) echo "usage: scripts/test.sh [test|check]" >&2; exit 2 ;; esac
swift=${SWIFT:-swift}
make=${MAKE:-make}
logs=.build/test-logs
mkdir -p "$logs"

summary=()
failed_steps=0
# step NAME COMMAND...: runs COMMAND, its output to the terminal and to $logs/NAME.log.
step() {
    local name=$1; shift
    local log=$logs/$name.log start=$SECONDS status
    printf '\n==> %s: %s\n' "$name" "$*"
    "$@" 2>&1 | tee "$log"
    status=${PIPESTATUS[0]}
    local elapsed=$((SECONDS - start)) counts failures
    counts=$(tally "$log")
    if [ "$status" -eq 0 ]; then
        summary+=("passed  $name ($counts, ${elapsed} s)")
    else
        failed_steps=$((failed_steps + 1))
        summary+=("FAILED  $name ($counts, ${elapsed} s, exit $status; log: $log)")
        failures=$(failed_tests "$log")
        [ -n "$failures" ] && while IFS= read -r line; do summary+=("          $line"); done <<<"$failures"
    fi
    return "$status"
}

# How many tests a log shows: Swift Testing's closing line, or the package test's ok lines.
tally() {
    local run oks
    run=$(grep -aoE 'Test run with [0-9]+ tests? in [0-9]+ suites? (passed|failed)( after [0-9.]+ seconds)?( with [0-9]+ issues?)?' "$1" | tail -n 1)
    oks=$(grep -acE '^(not )?ok - ' "$1")
    if [ -n "$run" ]; then echo "${run#Test run with }"
    elif [ "$oks" -gt 0 ]; then echo "$oks checks, $(grep -acE '^not ok - ' "$1") failed"
    else echo "no tests"; fi
}

# The tests a log names as failed, one per line, at most 40.
failed_tests() {
    { grep -aoE '✘ Test .* (failed|recorded an issue)' "$1" | sed -E 's/^✘ Test (.*) (failed|recorded an issue).*/\1/' | sort -u
      grep -aE '^not ok - ' "$1" | sed 's/^not ok - /package: /'
      grep -aE 'error: ' "$1" | grep -avE '✘|Expectation failed|#expect|#require' | head -n 5
    } | head -n 40
}

scripts/install-deps.sh test || exit 1
step check-layers "$make" --no-print-directory check-layers
if step build "$swift" build --build-tests; then
    step tests env SWIFT="$swift" scripts/test-shards.sh --without-install
else
    summary+=("skipped tests (the build failed)")
fi
if [ "$mode" = check ]; then
step check-consumable "$make" --no-print-directory check-consumable
step check-api "$make" --no-print-directory check-api
# The library's DocC articles and symbol links (make docs), then the Examples package built against the
# library and each example run against the simulator, README.md's quick start among them (make examples).
step docs "$make" --no-print-directory docs
step examples "$make" --no-print-directory examples
# The library's public-API tests under ThreadSanitizer: its I/O threads and async callers share state.
# A package of their own (Tests/ThreadSanitizer links them) instruments the library and those tests only,
# not the CLI and its end-to-end suites.
# The burst of 200 connections is left out: under the sanitizer it measures the sanitizer.
step library-tsan "$swift" test --package-path Tests/ThreadSanitizer --sanitize=thread --skip BurstTests
# The wire and JSON tests again, optimised: the optimiser once turned a correct mask-key load into
# garbage that only a release build showed. A package of their own (Tests/Optimised links the four layers
# and their tests) compiles only those in release, not the layers above, the CLI, the simulator and the
# end-to-end suites; every test it holds is a wire, TLS or JSON test.
step release-tests "$swift" test --package-path Tests/Optimised -c release -Xswiftc -cross-module-optimization
step packages "$make" --no-print-directory package-test
# `make install` and `make uninstall` into a scratch DESTDIR (CompletionInstallTests): it needs the
# release build, which the packages step has just made.
step install-test "$("$swift" build --show-bin-path)/openclawPackageTests.xctest" --testing-library swift-testing \
    --filter CompletionInstallTests
# What users put between the client and a gateway, the real thing each time (Tests/RealWorld): a CA
# chain, nginx and haproxy, dnsmasq, a lossy link (netem), other distributions' CA layouts.
step real-world env OPENCLAW_STATIC="$PWD/.build/release/openclaw" Tests/RealWorld/run.sh
# The CA chain again with the shipped static binary (its OpenSSL and start-up are the release ones).
step real-world-static env OPENCLAW="$PWD/.build/release/openclaw" SIMULATOR="$PWD/.build/release/openclaw-gateway-sim" \
    Tests/RealWorld/run.sh tls-chain
# Every ```swift block of README.md and of the DocC articles, compiled (make snippets).
step snippets "$make" --no-print-directory snippets
fi

printf '\n==> summary (logs in %s)\n' "$logs"
printf '%s\n' "${summary[@]}"
if [ "$failed_steps" -gt 0 ]; then
    printf 'make %s: %d step(s) failed\n' "$mode" "$failed_steps"
    exit 1
fi
echo "make $mode: all passed"
