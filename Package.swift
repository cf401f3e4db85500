// swift-tools-version:6.0
import PackageDescription

// `make release` (and deb, dist) export OPENCLAW_COMMIT=<git commit>; `openclaw version` prints it.
// Only hex digits and "-dirty" get through, so nothing odd reaches the C compiler's command line.
let commit = (Context.environment["OPENCLAW_COMMIT"] ?? "").filter { "0123456789abcdef-dirty".contains($0) }

// Release executables are hardened as Debian builds programs: relocations read-only after start (full
// RELRO: `-z relro -z now`), on top of the toolchain's PIE and non-executable stack.
let hardened: [LinkerSetting] = [
    .unsafeFlags(["-Xlinker", "-z", "-Xlinker", "relro", "-Xlinker", "-z", "-Xlinker", "now"], .when(configuration: .release)),
]

// `OPENCLAW_LINK=static` (set by `make release`, `install` and `dist`) links each executable as a static PIE:
// glibc, the Swift runtime, libstdc++ and (through the Makefile's PKG_CONFIG_PATH) OpenSSL are linked in,
// so no shared library is loaded or relocated at start. Measured, that is half the start-up CPU of a
// dynamically linked build (README, Benchmarks). lld, because gold cannot link a static PIE; packed
// relative relocations (RELR) keep the self-relocation table small; `-lm` for SQLite's archive. The
// functions the common commands run are laid out together (packaging/startup.order, written by
// scripts/startup-order.sh), so starting touches fewer pages of code; a name it lacks is skipped.
let executableLinking: [LinkerSetting] = hardened + (Context.environment["OPENCLAW_LINK"] == "static"
    ? [.unsafeFlags(["-use-ld=lld", "-Xclang-linker", "-static-pie", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs",
                     "-Xlinker", "-lm",
                     "-Xlinker", "--symbol-ordering-file=\(Context.packageDirectory)/packaging/startup.order",
                     "-Xlinker", "--no-warn-symbol-ordering"])]
    : [])

// Release builds optimise across the layers' module boundaries (the frame scanner, the WebSocket decoder
// and the session loop are each other's hot paths): the Makefile passes -cross-module-optimization on
// the command line, so that no library target carries an unsafe flag and a package can depend on this
// one by version. Only the executables, which no other package links, have linker flags of their own.

let package = Package(
    name: "openclaw",
    products: [
        .executable(name: "openclaw", targets: ["openclaw"]),
        .executable(name: "openclaw-gateway-sim", targets: ["openclaw-gateway-sim"]),
        // The client library: `import ClawGatewayClient` (async, Sendable), one module. The layers under it
        // declare `@_spi(Engine) public`: only this package imports them, the compiler refuses their types
        // in the library's API, and an internal change is never an API break (ARCHITECTURE.md says why not
        // `package`: cross-module optimisation does not inline it).
        .library(name: "ClawGatewayClient", targets: ["ClawGatewayClient"]),
        // An in-process gateway for users' tests: the simulator as a library.
        .library(name: "ClawGatewayTesting", targets: ["ClawGatewayTesting"]),
    ],
    targets: [
        // libssl + libcrypto from the system; Shim.h wraps the macros Swift cannot import. The C targets
        // have names of our own: a C module cannot be aliased, and COpenSSL or CSQLite are common.
        .systemLibrary(
            name: "CClawOpenSSL",
            pkgConfig: "openssl",
            providers: [.apt(["libssl-dev"])]
        ),
        // The system SQLite (libsqlite3-dev), for the official state database (`<state>/state/openclaw.sqlite`).
        // Our release builds link its static archive (the Makefile's pkg-config directory holds only
        // libsqlite3.a): Debian's libsqlite3.so is built BIND_NOW, and resolving its ~1,600 symbols cost
        // every start of every command 1.3 M instructions (19 % of `version`).
        .systemLibrary(name: "CClawSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),

        // The library, bottom to top. Each layer depends only on layers below it, so reaching upward
        // is a compile error; `make check-layers` (run by `make test`) holds the order and the rule
        // that only ClawSystem imports Glibc.
        .target(name: "ClawSystem"),
        .target(name: "ClawJSON", dependencies: ["ClawSystem"]),
        .target(name: "ClawCrypto", dependencies: ["CClawOpenSSL"]),
        .target(name: "ClawTransport", dependencies: ["ClawSystem", "ClawCrypto", "CClawOpenSSL"]),
        .target(name: "ClawProtocol", dependencies: ["ClawSystem", "ClawJSON"]),
        .target(name: "ClawState", dependencies: ["ClawSystem", "ClawJSON", "ClawCrypto", "ClawTransport", "CClawSQLite"]),
        .target(name: "ClawSession",
                dependencies: ["ClawSystem", "ClawJSON", "ClawCrypto", "ClawTransport", "ClawProtocol", "ClawState"]),
        // The async API over the session: one I/O thread per connection, never the cooperative pool.
        .target(name: "ClawGatewayClient",
                dependencies: ["ClawSystem", "ClawJSON", "ClawCrypto", "ClawTransport", "ClawProtocol", "ClawState",
                               "ClawSession"]),
        // The gateway simulator, startable in-process; a server, so it never opens a client session.
        .target(name: "ClawGatewayTesting",
                dependencies: ["ClawSystem", "ClawJSON", "ClawCrypto", "ClawTransport", "ClawProtocol", "ClawState"]),

        .target(
            name: "CBuildInfo",
            cSettings: commit.isEmpty ? [] : [.define("OPENCLAW_COMMIT", to: "\"\(commit)\"")]
        ),
        // The command-line client: the synchronous layers only (start-up speed), never the async module.
        .executableTarget(
            name: "openclaw",
            dependencies: ["ClawSystem", "ClawJSON", "ClawCrypto", "ClawTransport", "ClawProtocol", "ClawState",
                           "ClawSession", "CBuildInfo"],
            linkerSettings: executableLinking
        ),
        // The simulator's command line: a thin main over ClawGatewayTesting.
        .executableTarget(
            name: "openclaw-gateway-sim",
            dependencies: ["ClawGatewayTesting"],
            linkerSettings: executableLinking
        ),
        .testTarget(name: "ClawLibraryTests",
                    dependencies: ["ClawSystem", "ClawJSON", "ClawCrypto", "ClawTransport", "ClawProtocol", "ClawState",
                                   "ClawSession"]),
        // The library as its users see it: only the public products, no @testable.
        .testTarget(name: "ClawGatewayClientTests", dependencies: ["ClawGatewayClient", "ClawGatewayTesting"]),
        // The in-process gateway configured in code, as a user's test starts it (public API only).
        .testTarget(name: "ClawGatewayTestingTests", dependencies: ["ClawGatewayTesting", "ClawGatewayClient"]),
        // The frame schema is read from the source tree by the simulator conformance tests.
        .testTarget(name: "openclawTests",
                    dependencies: ["ClawSystem", "ClawJSON", "ClawCrypto", "ClawTransport", "ClawProtocol", "ClawState",
                                   "ClawSession", "openclaw", "CClawSQLite", "ClawGatewayClient"],
                    exclude: ["Simulator/Schema/gateway-frames.schema.json"]),
    ],
    swiftLanguageModes: [.v6]
)
