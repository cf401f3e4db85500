// swift-tools-version:6.0
import PackageDescription

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
        .target(name: "OpenClawKit", dependencies: ["COpenSSL"]),
        .executableTarget(name: "openclaw", dependencies: ["OpenClawKit"]),
        .executableTarget(name: "openclaw-gateway-sim", dependencies: ["OpenClawKit"]),
        .testTarget(name: "OpenClawKitTests", dependencies: ["OpenClawKit"]),
        // The frame schema is read from the source tree by the simulator conformance tests.
        .testTarget(name: "openclawTests", dependencies: ["OpenClawKit", "openclaw"],
                    exclude: ["Simulator/Schema/gateway-frames.schema.json"]),
    ],
    swiftLanguageModes: [.v6]
)
