import Foundation

/// A process that sees this account's home wherever the test says: ssh reads `~/.ssh` from the password
/// database, not from `$HOME`, so the process gets Samba's nss_wrapper (Debian's libnss-wrapper), which
/// answers `getpwuid` from a copy of `/etc/passwd` whose home field is the test's. Nothing is mounted
/// and no system file changes, so it works the same on a machine, in a container and in a chroot.
enum PasswordDatabaseOverride {
    /// nss_wrapper in the multiarch directory of this machine's architecture.
    static let library: String? = {
        var name = utsname()
        uname(&name)
        let machine = withUnsafeBytes(of: name.machine) { String(decoding: $0.prefix(while: { $0 != 0 }), as: UTF8.self) }
        return ["/usr/lib/\(machine)-linux-gnu/libnss_wrapper.so", "/usr/lib/libnss_wrapper.so", "/usr/lib64/libnss_wrapper.so"]
            .first { FileManager.default.fileExists(atPath: $0) }
    }()

    /// The variables that make a process (and every child it starts) see `home` as this account's home:
    /// copies of `/etc/passwd` and `/etc/group` in `home`'s parent.
    static func variables(home: URL) throws -> [String: String] {
        guard let library else { throw SSHTestError(description: "nss_wrapper is missing (Debian package libnss-wrapper)") }
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
        let base = home.deletingLastPathComponent().appendingPathComponent(home.lastPathComponent)
        let passwd = URL(fileURLWithPath: base.path + ".passwd"), group = URL(fileURLWithPath: base.path + ".group")
        try copy.joined(separator: "\n").write(to: passwd, atomically: true, encoding: .utf8)
        try String(contentsOfFile: "/etc/group", encoding: .utf8).write(to: group, atomically: true, encoding: .utf8)
        return ["LD_PRELOAD": library, "NSS_WRAPPER_PASSWD": passwd.path, "NSS_WRAPPER_GROUP": group.path]
    }
}
