import Glibc

/// Which file a path leads to: its device and inode after following symbolic links, and its real
/// path, so that two paths (a symlink, a hard link, `ThisProcess.executablePath`) can be compared.
@_spi(Engine) public struct FileIdentity: Sendable {
    let device: UInt
    let inode: UInt
    let mode: UInt32
    let realPath: String?
    let path: String

    /// nil when `stat(2)` cannot reach anything at `path`.
    @_spi(Engine) public init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        device = UInt(info.st_dev)
        inode = UInt(info.st_ino)
        mode = UInt32(info.st_mode)
        self.path = path
        if let resolved = realpath(path, nil) {
            realPath = String(cString: resolved)
            free(resolved)
        } else {
            realPath = nil
        }
    }

    /// A regular file this process may execute (`access(2)` with `X_OK`).
    @_spi(Engine) public var isExecutableFile: Bool { (mode & UInt32(S_IFMT)) == UInt32(S_IFREG) && access(path, X_OK) == 0 }

    /// The same file: the same device and inode, or the same real path.
    @_spi(Engine) public func isSame(as other: FileIdentity?) -> Bool {
        guard let other else { return false }
        return (device == other.device && inode == other.inode) || (realPath != nil && realPath == other.realPath)
    }
}
