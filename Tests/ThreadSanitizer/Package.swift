// swift-tools-version:6.0
// The library's public-API tests (Tests/ClawGatewayClientTests, linked here) under ThreadSanitizer, as a
// package of their own: `swift test --sanitize=thread` then instruments the library and those tests
// only, not the CLI and its end-to-end suites, which the race check does not need (scripts/test.sh).
import PackageDescription

let package = Package(
    name: "openclaw-thread-sanitizer",
    dependencies: [.package(name: "openclaw", path: "../..")],
    targets: [
        .testTarget(name: "ClawGatewayClientTests", dependencies: [
            .product(name: "ClawGatewayClient", package: "openclaw"),
            .product(name: "ClawGatewayTesting", package: "openclaw"),
        ]),
    ],
    swiftLanguageModes: [.v6]
)
