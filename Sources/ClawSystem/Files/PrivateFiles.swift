import Glibc

/// The file operations a private store needs beyond reading and atomic writes: exact modes that do
/// not depend on the umask, and the real path of what is already there.
extension FileSystem {
    /// `realpath(3)`: the absolute path with every symbolic link, `.` and `..` resolved, or nil when
    /// that cannot be done (the path is missing, or a component is not searchable).
    @_spi(Engine) public static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// `path` made absolute, with its longest existing ancestor replaced by that ancestor's real path
    /// and the missing rest appended: a path that may not exist yet, named as it will be once it does
    /// (the official CLI's `resolvePathViaExistingAncestorSync`, which its lock names are hashed from).
    @_spi(Engine) public static func canonicalPath(_ path: String) -> String {
        let normalized = Paths.resolve(path, currentDirectory: currentDirectory())
        var cursor = normalized
        var missing: [String] = []
        while cursor != "/" && !exists(cursor) {
            missing.insert(Paths.lastComponent(cursor), at: 0)
            cursor = Paths.parent(cursor)
        }
        guard exists(cursor), let real = realPath(cursor) else { return normalized }
        return missing.isEmpty ? real : Paths.resolve(missing.joined(separator: "/"), currentDirectory: real)
    }

    /// `chmod(2)`.
    @_spi(Engine) public static func setPermissions(_ path: String, _ mode: mode_t) throws(Failure) {
        guard chmod(path, mode) == 0 else { throw Failure(code: errno) }
    }

    /// Creates an empty file with exactly `mode` (the umask does not apply); false when something is
    /// already at `path`, which is left as it is.
    @_spi(Engine) public static func createEmptyFile(_ path: String, mode: mode_t) throws(Failure) -> Bool {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, mode)
        if fd < 0 {
            if errno == EEXIST { return false }
            throw Failure(code: errno)
        }
        defer { close(fd) }
        guard fchmod(fd, mode) == 0 else { throw Failure(code: errno) }
        return true
    }
}
