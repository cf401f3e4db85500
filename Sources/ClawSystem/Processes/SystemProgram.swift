/// Programs the operating system provides, used only when nobody but root can change them: found in
/// the directories given (never through PATH), a regular executable file owned by root and writable
/// by no one else, in a directory owned by root and writable by no one else (symbolic links are
/// followed, as `/bin` → `/usr/bin` is).
@_spi(Engine) public enum SystemProgram {
    /// The first trusted program among `locations`, or nil.
    @_spi(Engine) public static func locate(in locations: [String]) -> String? {
        locations.first(where: isTrusted)
    }

    @_spi(Engine) public static func isTrusted(_ path: String) -> Bool {
        guard let file = try? FileSystem.status(path), file.kind == .regular, file.ownerID == 0,
              !file.isGroupOrOtherWritable, file.permissions & 0o111 != 0,
              let directory = try? FileSystem.status(Paths.parent(path)), directory.kind == .directory,
              directory.ownerID == 0, !directory.isGroupOrOtherWritable
        else { return false }
        return true
    }
}
