import Glibc

/// The few POSIX file operations configuration and identity need, with errno turned into text.
@_spi(Engine) public enum FileSystem {
    /// Why a file operation failed, as `strerror` words (never the file's contents).
    @_spi(Engine) public struct Failure: Error, Sendable {
        @_spi(Engine) public let code: Int32
        @_spi(Engine) public var reason: String { systemErrorText(code) }
        @_spi(Engine) public var isNotFound: Bool { code == ENOENT || code == ENOTDIR }
    }

    @_spi(Engine) public static func exists(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0
    }

    /// Whether anything, a dangling symlink included, is at `path`; an error other than "no such file"
    /// counts as something being there.
    @_spi(Engine) public static func lexists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 || errno != ENOENT
    }

    /// Whether `path` is a directory (following symbolic links).
    @_spi(Engine) public static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    /// The whole file; refuses anything over `limit` bytes (config and identity files are small).
    @_spi(Engine) public static func readFile(_ path: String, limit: Int = 16 << 20) throws(Failure) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw Failure(code: errno) }
        defer { close(fd) }
        var info = stat()
        if fstat(fd, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR { throw Failure(code: EISDIR) }
        var out = [UInt8]()
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw Failure(code: errno)
            }
            if count == 0 { break }
            out.append(contentsOf: chunk[0..<count])
            if out.count > limit { throw Failure(code: EFBIG) }
        }
        return out
    }

    /// Creates `path` and any missing parents with `mode`; existing directories are left as they are.
    @_spi(Engine) public static func makeDirectories(_ path: String, mode: mode_t) throws(Failure) {
        if isDirectory(path) { return }
        let parent = Paths.parent(path)
        if parent != path && !parent.isEmpty { try makeDirectories(parent, mode: mode) }
        if mkdir(path, mode) == 0 {
            // mkdir(2) applies the umask; a private directory must not depend on it.
            _ = chmod(path, mode)
        } else if errno != EEXIST {
            throw Failure(code: errno)
        }
    }

    /// Writes `bytes` to a temporary file in the same directory (mode `mode`), fsyncs it, then moves
    /// it into place, so readers see the old file or the new one and never a torn write.
    /// With `onlyIfAbsent`, an existing file wins and `false` is returned.
    @discardableResult
    @_spi(Engine) public static func writeAtomically(
        _ bytes: [UInt8], to path: String, mode: mode_t, onlyIfAbsent: Bool = false
    ) throws(Failure) -> Bool {
        let directory = Paths.parent(path)
        let temporary = directory + "/." + Paths.lastComponent(path) + "." + temporarySuffix() + ".tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        guard fd >= 0 else { throw Failure(code: errno) }
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + written, $0.count - written) }
            if count < 0 {
                if errno == EINTR { continue }
                let code = errno
                close(fd); unlink(temporary)
                throw Failure(code: code)
            }
            written += count
        }
        _ = fchmod(fd, mode)
        if fsync(fd) != 0 {
            let code = errno
            close(fd); unlink(temporary)
            throw Failure(code: code)
        }
        close(fd)
        defer { _ = unlink(temporary) }
        if onlyIfAbsent {
            // link(2) fails with EEXIST instead of replacing: two processes creating at once agree on one file.
            if link(temporary, path) != 0 {
                let code = errno
                if code == EEXIST { return false }
                if code != EPERM && code != ENOTSUP && code != EXDEV { throw Failure(code: code) }
                if exists(path) { return false }
                guard rename(temporary, path) == 0 else { throw Failure(code: errno) }
            }
        } else {
            guard rename(temporary, path) == 0 else { throw Failure(code: errno) }
        }
        syncDirectory(directory)
        return true
    }

    /// Twelve random hex digits from /dev/urandom: a name no other writer picks (O_EXCL catches the rest;
    /// the process id and the clock stand in if the device cannot be read).
    private static func temporarySuffix() -> String {
        var bytes = withUnsafeBytes(of: (UInt32(truncatingIfNeeded: getpid()), UInt16(truncatingIfNeeded: nowMilliseconds()))) { Array($0) }
        let fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC)
        if fd >= 0 {
            _ = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            close(fd)
        }
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        for byte in bytes { text.append(digits[Int(byte >> 4)]); text.append(digits[Int(byte & 15)]) }
        return String(decoding: text, as: UTF8.self)
    }

    /// Makes a rename durable; failure only weakens durability, so it is ignored.
    private static func syncDirectory(_ path: String) {
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return }
        _ = fsync(fd)
        close(fd)
    }

    @_spi(Engine) public static func currentDirectory() -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        guard getcwd(&buffer, buffer.count) != nil else { return nil }
        let bytes = buffer.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The login user's home from the password database, used when HOME is unset.
    @_spi(Engine) public static func passwordDatabaseHome() -> String? {
        guard let entry = getpwuid(getuid()), let dir = entry.pointee.pw_dir else { return nil }
        let home = String(cString: dir)
        return home.isEmpty ? nil : home
    }

    @_spi(Engine) public static func nowMilliseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec) / 1_000_000
    }
}
