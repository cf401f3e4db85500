#!/usr/bin/env bash
# check-consumable.sh: another package can depend on this one by version. Clones HEAD (committed files
# only) into a scratch directory, tags the clone with this version, and builds a small consumer whose
# manifest says `.package(url: "file://CLONE", from: "VERSION")` and which uses the library product
# `ClawGatewayClient` (and `ClawGatewayTesting`). SwiftPM refuses a versioned dependency whose library targets carry unsafe build
# flags, so this fails the moment one comes back. `make check-consumable` (run by `make test`).
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
swift=${SWIFT:-swift}
version=$(sed -n 's/^.*static let current = "\(.*\)"/\1/p' "$repo/Sources/ClawProtocol/ClawVersion.swift")
scratch=$(mktemp -d /tmp/openclaw-consumer.XXXXXX)
trap 'rm -rf "$scratch"' EXIT

git clone -q "$repo" "$scratch/openclaw"
git -C "$scratch/openclaw" -c user.name=check -c user.email=check@localhost tag -a "$version" -m "$version"
mkdir -p "$scratch/consumer/Sources/consumer" "$scratch/consumer/Sources/client-only"
cat >"$scratch/consumer/Package.swift" <<SWIFT
// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "consumer",
    dependencies: [.package(url: "file://$scratch/openclaw", from: "$version")],
    targets: [
        .executableTarget(name: "consumer", dependencies: [
            .product(name: "ClawGatewayClient", package: "openclaw"),
            .product(name: "ClawGatewayTesting", package: "openclaw"),
        ]),
        // The client alone: a program that links no Foundation (the simulator's product does).
        .executableTarget(name: "client-only", dependencies: [.product(name: "ClawGatewayClient", package: "openclaw")]),
    ]
)
SWIFT
cat >"$scratch/consumer/Sources/consumer/main.swift" <<'SWIFT'
import ClawGatewayClient
import ClawGatewayTesting

// One import for the client: connects to an in-process test gateway (typed settings), sends one message,
// reads the typed history back.
var settings = TestGatewayConfiguration()
settings.token = "t"
let gateway = try TestGateway.start(settings)
var configuration = GatewayConfiguration(url: gateway.url)
configuration.token = Secret("t")
let (health, history) = try await GatewayConnection.withConnection(configuration) { connection in
    _ = try await connection.send("hello", to: .main).reply()
    return (try await connection.request("health"), try await connection.history(of: "agent:main:main", limit: 2))
}
gateway.stop()
print("health:", String(describing: health).prefix(40), "history:", history.map { "\($0.role): \($0.text)" })
SWIFT
cat >"$scratch/consumer/Sources/client-only/main.swift" <<'SWIFT'
import ClawGatewayClient

// Nothing to connect to: a configuration error, described, is enough to link the client.
do {
    try await GatewayConnection.withConnection(GatewayConfiguration(url: "http://not-a-gateway")) { _ in }
} catch let error as GatewayClientError where error.code == .invalidConfiguration {
    print("client-only:", error.configurationProblem.map { "\($0)" } ?? "?", error)
}
SWIFT
cd "$scratch/consumer"
if ! output=$("$swift" build 2>&1); then
    echo "check-consumable: a package depending on openclaw $version (from:) does not build:" >&2
    grep -E "error|unsafe" <<<"$output" | head -n 10 >&2
    exit 1
fi
./.build/debug/consumer
./.build/debug/client-only
# The library's promise: no Foundation. A dynamically linked debug build names every library it loads.
if ldd ./.build/debug/client-only | grep -i foundation >&2; then
    echo "check-consumable: a program using only ClawGatewayClient links Foundation" >&2
    exit 1
fi
echo "check-consumable: a package depending on openclaw from: \"$version\" builds and runs; ClawGatewayClient alone links no Foundation"
