import Foundation
import Testing
@_spi(Engine) @testable import ClawState

/// A private temporary directory, removed when the test ends.
final class ConfigTestDirectory {
    let path: String

    init() {
        let base = FileManager.default.temporaryDirectory.path
        let path = base + "/openclaw-identity-tests-" + UUID().uuidString
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        // Some temp dirs are symlinks; the code under test works on resolved paths.
        self.path = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    func sub(_ name: String) -> String { path + "/" + name }

    @discardableResult
    func write(_ name: String, _ text: String) -> String {
        let file = sub(name)
        try? FileManager.default.createDirectory(
            atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        FileManager.default.createFile(atPath: file, contents: Data(text.utf8))
        return file
    }

    func mkdir(_ name: String) {
        try? FileManager.default.createDirectory(atPath: sub(name), withIntermediateDirectories: true)
    }

    func read(_ path: String) -> String? {
        FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) }
    }
}

/// Permission bits of a path (`stat(2)`), nil when it does not exist.
func permissionBits(_ path: String) -> Int? {
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    return Int(info.st_mode & 0o777)
}

/// A setting's source in the words the CLI uses (`--token-file PATH`, `gateway.auth.token in PATH`).
func sourceLabel(_ source: SettingSource?) -> String {
    (source ?? .none).label { option in
        "--" + String(describing: option).flatMap { $0.isUppercase ? "-" + $0.lowercased() : String($0) }
    }
}
