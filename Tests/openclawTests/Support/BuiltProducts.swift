import Foundation

/// Where `swift build` put the executables: the directory of the running test binary (`.build/debug`).
enum BuiltProducts {
    static var directory: URL {
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
