import Glibc

/// What `stat(2)` says about a path: its kind, owner and permission bits.
package struct FileStatus: Sendable, Equatable {
    package enum Kind: Sendable, Equatable { case regular, directory, symbolicLink, other }

    package let kind: Kind
    package let ownerID: UInt32
    /// The permission bits (`st_mode & 0o7777`).
    package let permissions: UInt32
    package let size: Int64

    init(_ info: stat) {
        switch info.st_mode & S_IFMT {
        case S_IFREG: kind = .regular
        case S_IFDIR: kind = .directory
        case S_IFLNK: kind = .symbolicLink
        default: kind = .other
        }
        ownerID = UInt32(info.st_uid)
        permissions = UInt32(info.st_mode & 0o7777)
        size = Int64(info.st_size)
    }

    /// Whether anyone but the owner may read or write it (group or other r/w bits).
    package var isGroupOrOtherReadableOrWritable: Bool { permissions & 0o066 != 0 }
    /// Whether the group or others may write it.
    package var isGroupOrOtherWritable: Bool { permissions & 0o022 != 0 }
}

extension FileSystem {
    /// The real user id of this process (`getuid(2)`).
    package static func currentUserID() -> UInt32 { UInt32(getuid()) }

    /// `lstat(2)`: the path itself, a symbolic link not followed.
    package static func linkStatus(_ path: String) throws(Failure) -> FileStatus {
        var info = stat()
        guard lstat(path, &info) == 0 else { throw Failure(code: errno) }
        return FileStatus(info)
    }

    /// `stat(2)`: what the path leads to.
    package static func status(_ path: String) throws(Failure) -> FileStatus {
        var info = stat()
        guard stat(path, &info) == 0 else { throw Failure(code: errno) }
        return FileStatus(info)
    }
}

/// A file opened for reading, so that its status and its contents are those of one and the same
/// file (no swap between a check and the read).
package final class ReadOnlyFile {
    private let descriptor: Int32

    private init(descriptor: Int32) { self.descriptor = descriptor }
    deinit { _ = close(descriptor) }

    /// Opens `path`; with `followSymbolicLinks: false` a symbolic link as the last component fails
    /// (`Failure.isSymbolicLink`). Never blocks on a FIFO or device.
    package static func open(_ path: String, followSymbolicLinks: Bool) throws(FileSystem.Failure) -> ReadOnlyFile {
        var flags = O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY
        if !followSymbolicLinks { flags |= O_NOFOLLOW }
        let fd = Glibc.open(path, flags)
        guard fd >= 0 else { throw FileSystem.Failure(code: errno) }
        return ReadOnlyFile(descriptor: fd)
    }

    package func status() throws(FileSystem.Failure) -> FileStatus {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw FileSystem.Failure(code: errno) }
        return FileStatus(info)
    }

    /// The contents; more than `limit` bytes fails with `Failure.isTooLarge`.
    package func readAll(limit: Int) throws(FileSystem.Failure) -> [UInt8] {
        var out = [UInt8]()
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw FileSystem.Failure(code: errno)
            }
            if count == 0 { return out }
            out.append(contentsOf: chunk[0..<count])
            if out.count > limit { throw FileSystem.Failure(code: EFBIG) }
        }
    }
}

extension FileSystem.Failure {
    /// `open` with `followSymbolicLinks: false` met a symbolic link.
    package var isSymbolicLink: Bool { code == ELOOP }
    /// The file is larger than the caller's limit.
    package var isTooLarge: Bool { code == EFBIG }
}
