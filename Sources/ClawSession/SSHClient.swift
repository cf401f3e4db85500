@_spi(Engine) import ClawSystem

/// The system's OpenSSH client. Like the official client, it is looked for only in directories the
/// operating system manages, never through PATH, and used only when nobody but root can change it.
@_spi(Engine) public enum SSHClient {
    /// Where it is looked for, in order.
    @_spi(Engine) public static let systemLocations = ["/usr/bin/ssh", "/bin/ssh", "/usr/local/bin/ssh"]

    /// The first trusted client among `locations`, or nil.
    @_spi(Engine) public static func locate(in locations: [String] = systemLocations) -> String? {
        locations.first(where: isTrusted)
    }

    /// A regular executable file owned by root and writable by no one else, in a directory owned by
    /// root and writable by no one else (`SystemProgram`).
    static func isTrusted(_ path: String) -> Bool { SystemProgram.isTrusted(path) }
}
