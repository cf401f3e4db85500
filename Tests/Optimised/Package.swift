// swift-tools-version:6.0
// The wire and JSON tests again, optimised (scripts/test.sh, the release-tests step): the layers they test
// (ClawSystem, ClawJSON, ClawCrypto, ClawTransport) and those tests (Tests/ClawLibraryTests' ClawTransport
// and ClawJSON folders, the PEM and TCP suites, their support files), linked here and compiled in release
// with cross-module optimisation. A package of its own, so that the optimised build compiles only these,
// not the layers above, the CLI, the simulator and the end-to-end suites. The targets mirror the root
// manifest's (same names and dependencies); the sources are the root's, through symlinks.
import PackageDescription

let package = Package(
    name: "openclaw-optimised",
    targets: [
        .systemLibrary(name: "CClawOpenSSL", pkgConfig: "openssl", providers: [.apt(["libssl-dev"])]),
        .target(name: "ClawSystem"),
        .target(name: "ClawJSON", dependencies: ["ClawSystem"]),
        .target(name: "ClawCrypto", dependencies: ["CClawOpenSSL"]),
        .target(name: "ClawTransport", dependencies: ["ClawSystem", "ClawCrypto", "CClawOpenSSL"]),
        .testTarget(name: "WireTests", dependencies: ["ClawSystem", "ClawJSON", "ClawCrypto", "ClawTransport", "CClawOpenSSL"]),
    ],
    swiftLanguageModes: [.v6]
)
