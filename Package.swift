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
        // The system SQLite (libsqlite3-dev), for the official state database (`<state>/state/openclaw.sqlite`).
        // Linked from its static archive: Debian's libsqlite3.so is built BIND_NOW, and resolving its
        // ~1,600 symbols cost every start of every command 1.3 M instructions (19 % of `version`).
        .systemLibrary(name: "CSQLite", providers: [.apt(["libsqlite3-dev"])]),
        .target(name: "OpenClawKit", dependencies: ["COpenSSL", "CSQLite"],
                linkerSettings: [.unsafeFlags(["-Xlinker", "-l:libsqlite3.a"])]),
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
