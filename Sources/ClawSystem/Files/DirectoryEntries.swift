import Glibc

extension FileSystem {
    /// Whether the directory at `path` holds an entry whose name satisfies `matches`; stops at the first.
    /// False when it cannot be read.
    @_spi(Engine) public static func directory(_ path: String, containsEntry matches: (String) -> Bool) -> Bool {
        guard let stream = opendir(path) else { return false }
        defer { closedir(stream) }
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
                String(decoding: bytes.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            if matches(name) { return true }
        }
        return false
    }

    /// Whether `path` is a regular file this process can read (following symbolic links).
    @_spi(Engine) public static func isReadableFile(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG && access(path, R_OK) == 0
    }
}
