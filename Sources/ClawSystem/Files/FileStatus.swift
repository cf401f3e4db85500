import Glibc

/// What `stat(2)` says about a path: its kind, owner and permission bits.
@_spi(Engine) public struct FileStatus: Sendable, Equatable {
    @_spi(Engine) public enum Kind: Sendable, Equatable { case regular, directory, symbolicLink, other }

    @_spi(Engine) public let kind: Kind
    @_spi(Engine) public let ownerID: UInt32
    /// The permission bits (`st_mode & 0o7777`).
    @_spi(Engine) public let permissions: UInt32
    @_spi(Engine) public let size: Int64

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
    @_spi(Engine) public var isGroupOrOtherReadableOrWritable: Bool { permissions & 0o066 != 0 }
    /// Whether the group or others may write it.
    @_spi(Engine) public var isGroupOrOtherWritable: Bool { permissions & 0o022 != 0 }
}

extension FileSystem {
    /// The real user id of this process (`getuid(2)`).
    @_spi(Engine) public static func currentUserID() -> UInt32 { UInt32(getuid()) }

    /// `lstat(2)`: the path itself, a symbolic link not followed.
    @_spi(Engine) public static func linkStatus(_ path: String) throws(Failure) -> FileStatus {
        var info = stat()
        guard lstat(path, &info) == 0 else { throw Failure(code: errno) }
        return FileStatus(info)
    }

    /// `stat(2)`: what the path leads to.
    @_spi(Engine) public static func status(_ path: String) throws(Failure) -> FileStatus {
        var info = stat()
        guard stat(path, &info) == 0 else { throw Failure(code: errno) }
        return FileStatus(info)
    }
}

/// A file opened for reading, so that its status and its contents are those of one and the same
/// file (no swap between a check and the read).
@_spi(Engine) public final class ReadOnlyFile {
    private let descriptor: Int32

    private init(descriptor: Int32) { self.descriptor = descriptor }
    deinit { _ = close(descriptor) }

    /// Opens `path`; with `followSymbolicLinks: false` a symbolic link as the last component fails
    /// (`Failure.isSymbolicLink`). Never blocks on a FIFO or device.
    @_spi(Engine) public static func open(_ path: String, followSymbolicLinks: Bool) throws(FileSystem.Failure) -> ReadOnlyFile {
        var flags = O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY
        if !followSymbolicLinks { flags |= O_NOFOLLOW }
        let fd = Glibc.open(path, flags)
        guard fd >= 0 else { throw FileSystem.Failure(code: errno) }
        return ReadOnlyFile(descriptor: fd)
    }

    @_spi(Engine) public func status() throws(FileSystem.Failure) -> FileStatus {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw FileSystem.Failure(code: errno) }
        return FileStatus(info)
    }

    /// Up to `count` bytes from the start of the file (fewer when it is shorter).
    @_spi(Engine) public func readPrefix(_ count: Int) throws(FileSystem.Failure) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let n = out.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress! + filled, count - filled, off_t(filled)) }
            if n < 0 {
                if errno == EINTR { continue }
                throw FileSystem.Failure(code: errno)
            }
            if n == 0 { break }
            filled += n
        }
        return Array(out[0..<filled])
    }

    /// The contents; more than `limit` bytes fails with `Failure.isTooLarge`.
    @_spi(Engine) public func readAll(limit: Int) throws(FileSystem.Failure) -> [UInt8] {
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
    @_spi(Engine) public var isSymbolicLink: Bool { code == ELOOP }
    /// The file is larger than the caller's limit.
    @_spi(Engine) public var isTooLarge: Bool { code == EFBIG }
}
