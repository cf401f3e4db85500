import Foundation

/// Where the built executables are: next to the test bundle (`.build/debug`).
enum BuiltProducts {
    static var directory: URL {
        var url = Bundle.main.bundleURL
        // On Linux the test runner is `.build/debug/openclawPackageTests.xctest`; its directory holds the products.
        if url.pathExtension == "xctest" { url = url.deletingLastPathComponent() }
        return url
    }

    static func executable(_ name: String) -> URL { directory.appendingPathComponent(name) }
}
