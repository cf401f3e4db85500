import ClawSystem

/// The system's OpenSSH client. Like the official client, it is looked for only in directories the
/// operating system manages, never through PATH, and used only when nobody but root can change it.
public enum SSHClient {
    /// Where it is looked for, in order.
    public static let systemLocations = ["/usr/bin/ssh", "/bin/ssh", "/usr/local/bin/ssh"]

    /// The first trusted client among `locations`, or nil.
    public static func locate(in locations: [String] = systemLocations) -> String? {
        locations.first(where: isTrusted)
    }

    /// A regular executable file owned by root and writable by no one else, in a directory owned by
    /// root and writable by no one else (symbolic links are followed, as `/bin` → `/usr/bin` is).
    static func isTrusted(_ path: String) -> Bool {
        guard let file = try? FileSystem.status(path), file.kind == .regular, file.ownerID == 0,
              !file.isGroupOrOtherWritable, file.permissions & 0o111 != 0,
              let directory = try? FileSystem.status(Paths.parent(path)), directory.kind == .directory,
              directory.ownerID == 0, !directory.isGroupOrOtherWritable
        else { return false }
        return true
    }
}
