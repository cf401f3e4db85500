// swift-tools-version:6.0
// A library user built in debug, as SwiftPM builds one by default (the library unoptimised too):
// bench/bench.py's `--debug-reader` section runs it against the simulator streaming a long reply.
import PackageDescription

let package = Package(
    name: "openclaw-debug-reader",
    dependencies: [.package(name: "openclaw", path: "../..")],
    targets: [
        .executableTarget(name: "debug-reader", dependencies: [.product(name: "ClawGatewayClient", package: "openclaw")]),
    ],
    swiftLanguageModes: [.v6]
)
