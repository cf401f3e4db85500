#!/usr/bin/env bash
# test-shards.sh: the package's tests (what `swift test --skip-build` runs) as four processes at once,
# each a shard of the suites. Most end-to-end tests wait on processes and sockets, not on a core, and
# one test process keeps only as many tests going as the machine has cores (Swift's cooperative pool):
# four shards keep the two cores busy instead of idle. The test bundle is run directly: `swift test`
# holds the build directory's lock for its whole run, which would run the shards one after another. Each shard's output follows in order, then one
# line that sums them in Swift Testing's words (scripts/test.sh counts it). Exits 1 if any shard failed.
set -uo pipefail
cd "$(dirname "$0")/.."
swift=${SWIFT:-swift}
bundle=$("$swift" build --show-bin-path)/openclawPackageTests.xctest
[ -x "$bundle" ] || { echo "test-shards: $bundle is not built (swift build --build-tests)" >&2; exit 1; }
dir=$(mktemp -d /tmp/openclaw-shards.XXXXXX)
trap 'rm -rf "$dir"' EXIT
# --without-install leaves out CompletionInstallTests, whose `make install` builds the release binary
# (make test leaves it to make check, which runs it once that build is there).
others="^openclawTests\.(?!CLI)"
if [ "${1:-}" = --without-install ]; then others="^openclawTests\.(?!CLI|CompletionInstallTests)"; shift; fi
# The suites whose limits are sized for an unloaded machine (0.2 s connects, 1 s pong deadlines) run
# after the shards, alone, as they would in one `swift test`. The library's burst of 200 connections
# runs last, by itself: it loads both cores, so beside any other test it starves that test's process
# (a debug `send` then missed a 1 s pong deadline in CLIKeepaliveTests, once in five runs).
timed_only="^openclawTests\.(CLIResilienceTests|CLIKeepaliveTests)"
burst="^ClawGatewayClientTests\.BurstTests"
timed="^(openclawTests\.(CLIResilienceTests|CLIKeepaliveTests)|ClawGatewayClientTests\.BurstTests)"
shards=(
    "--filter ^openclawTests\.CLI[A-K] --skip $timed"
    "--filter ^openclawTests\.CLI[L-Z] --skip $timed"
    "--filter $others"
    "--skip ^openclawTests\. --skip $timed"
)
pids=()
for i in "${!shards[@]}"; do
    # shellcheck disable=SC2086 # each shard is a flag and its pattern
    "$bundle" --testing-library swift-testing ${shards[$i]} "$@" >"$dir/$i.log" 2>&1 &
    pids+=($!)
done
trap 'kill "${pids[@]}" 2>/dev/null; rm -rf "$dir"; exit 130' INT TERM
failed=0 tests=0 suites=0
for i in "${!shards[@]}"; do
    wait "${pids[$i]}" || failed=$((failed + 1))
done
shards+=("--filter $timed_only" "--filter $burst")
"$bundle" --testing-library swift-testing --filter "$timed_only" "$@" >"$dir/4.log" 2>&1 || failed=$((failed + 1))
"$bundle" --testing-library swift-testing --filter "$burst" "$@" >"$dir/5.log" 2>&1 || failed=$((failed + 1))
for i in "${!shards[@]}"; do
    printf '\n==> shard %d: %s\n' "$((i + 1))" "${shards[$i]}"
    cat "$dir/$i.log"
    line=$(grep -aoE 'Test run with [0-9]+ tests? in [0-9]+ suites?' "$dir/$i.log" | tail -n 1)
    if [ -n "$line" ]; then
        read -r _ _ _ n _ _ m _ <<<"$line"
        tests=$((tests + n)) suites=$((suites + m))
    else
        echo "test-shards: shard $((i + 1)) ran no tests (did it build?)"
        failed=$((failed + 1))
    fi
done
if [ "$failed" -eq 0 ]; then
    echo "Test run with $tests tests in $suites suites passed (4 shards, then the timed suites, then the burst)"
else
    echo "Test run with $tests tests in $suites suites failed ($failed of 6 runs failed)"
    exit 1
fi
