// swift-tools-version:6.0
// The wire and JSON tests again, optimised (scripts/test.sh, the release-tests step): the layers up to
// ClawSession and their tests (Tests/ClawLibraryTests), linked here, compiled in release with cross-module
// optimisation. A package of its own, so that the optimised build compiles only what those tests use,
// not the CLI, the simulator, the async library and the end-to-end suites. The targets mirror the root
// manifest's (same names, same dependencies); the sources are the root's, through symlinks.
import PackageDescription

let package = Package(
    name: "openclaw-optimised",
    targets: [
        .systemLibrary(name: "CClawOpenSSL", pkgConfig: "openssl", providers: [.apt(["libssl-dev"])]),
        .systemLibrary(name: "CClawSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .target(name: "ClawSystem"),
        .target(name: "ClawJSON", dependencies: ["ClawSystem"]),
        .target(name: "ClawCrypto", dependencies: ["CClawOpenSSL"]),
        .target(name: "ClawTransport", dependencies: ["ClawSystem", "ClawCrypto", "CClawOpenSSL"]),
        .target(name: "ClawProtocol", dependencies: ["ClawSystem", "ClawJSON"]),
        .target(name: "ClawState", dependencies: ["ClawSystem", "ClawJSON", "ClawCrypto", "ClawTransport", "CClawSQLite"]),
        .target(name: "ClawSession",
                dependencies: ["ClawSystem", "ClawJSON", "ClawCrypto", "ClawTransport", "ClawProtocol", "ClawState"]),
        .testTarget(name: "ClawLibraryTests",
                    dependencies: ["ClawSystem", "ClawJSON", "ClawCrypto", "ClawTransport", "ClawProtocol", "ClawState",
                                   "ClawSession"]),
    ],
    swiftLanguageModes: [.v6]
)
