import Glibc

/// What changes when anything writes a file: its device, inode, size and modification and change
/// times (nanoseconds), from `stat(2)`. Two equal fingerprints taken around a read say nobody
/// replaced or wrote the file meanwhile (to the resolution of the file system's clock).
@_spi(Engine) public struct FileFingerprint: Sendable, Equatable {
    let device: UInt64
    let inode: UInt64
    let size: Int64
    let modified: Int64
    let changed: Int64

    /// nil when `stat(2)` reaches nothing at `path` (symbolic links followed).
    @_spi(Engine) public init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
        size = Int64(info.st_size)
        modified = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
        changed = Int64(info.st_ctim.tv_sec) * 1_000_000_000 + Int64(info.st_ctim.tv_nsec)
    }
}
