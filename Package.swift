// swift-tools-version:6.0
import PackageDescription

// `make release` (and deb, dist) export OPENCLAW_COMMIT=<git commit>; `openclaw version` prints it.
// Only hex digits and "-dirty" get through, so nothing odd reaches the C compiler's command line.
let commit = (Context.environment["OPENCLAW_COMMIT"] ?? "").filter { "0123456789abcdef-dirty".contains($0) }

let package = Package(
    name: "openclaw",
    products: [
        .executable(name: "openclaw", targets: ["openclaw"]),
        .executable(name: "openclaw-gateway-sim", targets: ["openclaw-gateway-sim"]),
        .library(name: "OpenClawKit", targets: ["OpenClawKit"]),
    ],
    targets: [
        // libssl + libcrypto from the system; Shim.h wraps the macros Swift cannot import.
        .systemLibrary(
            name: "COpenSSL",
            pkgConfig: "openssl",
            providers: [.apt(["libssl-dev"])]
        ),
        // The system SQLite, for the official state database (`<state>/state/openclaw.sqlite`).
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        .target(name: "OpenClawKit", dependencies: ["COpenSSL", "CSQLite"]),
        .target(
            name: "CBuildInfo",
            cSettings: commit.isEmpty ? [] : [.define("OPENCLAW_COMMIT", to: "\"\(commit)\"")]
        ),
        .executableTarget(name: "openclaw", dependencies: ["OpenClawKit", "CBuildInfo"]),
        .executableTarget(name: "openclaw-gateway-sim", dependencies: ["OpenClawKit"]),
        .testTarget(name: "OpenClawKitTests", dependencies: ["OpenClawKit"]),
        // The frame schema is read from the source tree by the simulator conformance tests.
        .testTarget(name: "openclawTests", dependencies: ["OpenClawKit", "openclaw", "CSQLite"],
                    exclude: ["Simulator/Schema/gateway-frames.schema.json"]),
    ],
    swiftLanguageModes: [.v6]
)
