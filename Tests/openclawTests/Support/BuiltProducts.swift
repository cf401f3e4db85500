import Foundation

/// Where `swift build` put the executables: the directory of the running test binary (`.build/debug`),
/// or `OPENCLAW_TEST_PRODUCTS` when it names another build's (`make test-arm64` points the natively built
/// tests at the arm64 binaries, which binfmt_misc runs through QEMU).
enum BuiltProducts {
    static var directory: URL {
        if let products = ProcessInfo.processInfo.environment["OPENCLAW_TEST_PRODUCTS"], !products.isEmpty {
            return URL(fileURLWithPath: products)
        }
        let candidates = [
            URL(fileURLWithPath: CommandLine.arguments.first ?? "").resolvingSymlinksInPath().deletingLastPathComponent(),
            Bundle.main.bundleURL.deletingLastPathComponent(),
            Bundle.main.bundleURL,
        ]
        for directory in candidates
        where FileManager.default.isExecutableFile(atPath: directory.appendingPathComponent("openclaw-gateway-sim").path) {
            return directory
        }
        return candidates[0]
    }

    static func executable(_ name: String) -> URL { directory.appendingPathComponent(name) }
}
