import Foundation

/// A process started through `unshare --mount` sees this account's home wherever the test says, by a
/// copy of `/etc/passwd` bound over the real one in its own mount namespace. Only `/etc/passwd` is
/// covered, so the checkout and the binary under test stay visible whatever path they have.
enum PrivateMountNamespace {
    static let unshare = "/usr/bin/unshare"

    /// Root, and a kernel and container that allow a private mount namespace (an unprivileged
    /// container does not): checked once by doing it.
    static let isAvailable: Bool = {
        guard getuid() == 0, FileManager.default.isExecutableFile(atPath: unshare) else { return false }
        let probe = Process()
        probe.executableURL = URL(fileURLWithPath: unshare)
        probe.arguments = ["--mount", "--propagation", "private", "/bin/true"]
        probe.standardOutput = FileHandle.nullDevice
        probe.standardError = FileHandle.nullDevice
        guard (try? probe.run()) != nil else { return false }
        probe.waitUntilExit()
        return probe.terminationStatus == 0
    }()

    /// A copy of `/etc/passwd` in `home`'s parent where this account's home field is `home`.
    static func passwd(home: URL) throws -> URL {
        let uid = String(getuid())
        let lines = try String(contentsOfFile: "/etc/passwd", encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        var replaced = false
        let copy = lines.map { line -> String in
            var fields = line.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
            guard fields.count == 7, fields[2] == uid, !replaced else { return String(line) }
            replaced = true
            fields[5] = home.path
            return fields.joined(separator: ":")
        }
        guard replaced else { throw SSHTestError(description: "uid \(uid) has no line in /etc/passwd") }
        let url = home.deletingLastPathComponent().appendingPathComponent(home.lastPathComponent + ".passwd")
        try copy.joined(separator: "\n").write(to: url, atomically: true, encoding: .utf8)
        return url
    }
}
