// swift-tools-version:6.0
// Small programs that use the library as another package would: through its products only.
// `make examples` builds them and runs each against the gateway simulator (run-against-simulator.sh).
import PackageDescription

let package = Package(
    name: "openclaw-examples",
    dependencies: [.package(name: "openclaw", path: "..")],
    targets: [
        // A one-shot job: send a message, print the final reply (cron, CI, a script).
        .executableTarget(name: "cron-summary", dependencies: [.product(name: "ClawGatewayClient", package: "openclaw")]),
        // A bot skeleton: a long-lived client, one message per stdin line, replies streamed.
        .executableTarget(name: "stdin-bot", dependencies: [.product(name: "ClawGatewayClient", package: "openclaw")]),
        // `openclaw watch` in a few dozen lines: every event as one JSON line.
        .executableTarget(name: "swift-watch", dependencies: [.product(name: "ClawGatewayClient", package: "openclaw")]),
        // One question, the reply streamed; Ctrl-C aborts the run on the gateway and ends by SIGINT.
        .executableTarget(name: "ask", dependencies: [.product(name: "ClawGatewayClient", package: "openclaw")]),
        // README.md's quick start, copied verbatim (run-against-simulator.sh fails when they differ).
        .executableTarget(name: "readme-quickstart", dependencies: [.product(name: "ClawGatewayClient", package: "openclaw")]),
    ],
    swiftLanguageModes: [.v6]
)
