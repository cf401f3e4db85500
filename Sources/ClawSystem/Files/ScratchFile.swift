import Glibc

/// An anonymous temporary file: created in a directory and unlinked at once, so nothing is left
/// behind on any exit; written and read at offsets. Closed when released.
@_spi(Engine) public final class ScratchFile {
    private let descriptor: Int32

    /// `mkstemp(3)` in `directory`, then `unlink(2)`.
    @_spi(Engine) public init(directory: String, prefix: String) throws(SystemError) {
        var template = Array((directory + "/" + prefix + "XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw .last }
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        descriptor = fd
    }

    deinit { _ = close(descriptor) }

    /// Writes all of `bytes` at `offset` (`pwrite(2)`, retried on EINTR).
    @_spi(Engine) public func write(_ bytes: [UInt8], at offset: Int) throws(SystemError) {
        var written = 0
        while written < bytes.count {
            let n = bytes.withUnsafeBytes { pwrite(descriptor, $0.baseAddress! + written, $0.count - written, off_t(offset + written)) }
            if n < 0 {
                if errno == EINTR { continue }
                throw .last
            }
            written += n
        }
    }

    /// `count` bytes from `offset` (`pread(2)`, retried on EINTR); nil when they cannot all be read.
    @_spi(Engine) public func read(count: Int, at offset: Int) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let n = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress! + done, $0.count - done, off_t(offset + done)) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return nil }
            done += n
        }
        return bytes
    }
}
